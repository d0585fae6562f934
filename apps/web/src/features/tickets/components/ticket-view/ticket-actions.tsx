import { Button, Group } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import type { Ticket, TicketFile } from '@ticket/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormatters } from '@/components/formatters';
import { DownloadIcon, TrashIcon } from '@/components/screen-icons';
import { directionOf } from '@/lib/i18n';
import { confirm, notifyError, notifySuccess } from '@/lib/notify';
import { forgetTicket, useDeleteTicket } from '../../api/delete-ticket';
import { getTicketFiles } from '../../api/get-ticket-files';
import { downloadFile, exportFileName, transcriptHtml, transcriptJson, withFreshFiles } from '../../lib/transcript';

interface TicketActionsProps {
  ticket: Ticket;
  /** Staff of the ticket's server may delete it. */
  canDelete: boolean;
  /** Called once the ticket is gone: leaves it (for the list, say). */
  onDeleted: () => void | Promise<void>;
}

/** Export the ticket (an HTML transcript or its JSON), and delete it after confirmation. */
export function TicketActions({ ticket, canDelete, onDeleted }: TicketActionsProps) {
  const { t, i18n } = useTranslation();
  const format = useFormatters();
  const queryClient = useQueryClient();
  const remove = useDeleteTicket();
  const [exporting, setExporting] = useState(false);

  // The links of the transcript carry download tokens, which expire: it asks for the files now, so
  // they open for a token's lifetime counted from the export, not from when the ticket was loaded.
  const exportHtml = async () => {
    setExporting(true);
    let files: TicketFile[];
    try {
      files = await getTicketFiles(ticket.server.serverId, ticket.ticketId);
    } catch {
      notifyError(t('tickets.loadFailed'));
      return;
    } finally {
      setExporting(false);
    }
    downloadFile(
      exportFileName(ticket, 'html'),
      transcriptHtml(withFreshFiles(ticket, files), {
        t,
        locale: i18n.language,
        dir: directionOf(i18n.language),
        formatDate: format.dateTime,
        formatBytes: format.bytes,
        origin: window.location.origin,
      }),
      'text/html;charset=utf-8',
    );
  };
  const exportJson = () => downloadFile(exportFileName(ticket, 'json'), transcriptJson(ticket), 'application/json;charset=utf-8');

  const deleteTicket = async () => {
    const sure = await confirm({
      title: t('tickets.view.deleteTitle', { number: ticket.number }),
      text: t('tickets.view.deleteConfirm'),
    });
    if (!sure) return;
    const { serverId } = ticket.server;
    try {
      await remove.mutateAsync({ serverId, ticketId: ticket.ticketId });
    } catch {
      notifyError(t('tickets.view.deleteFailed'));
      return;
    }
    notifySuccess(t('tickets.view.deleted', { number: ticket.number }));
    await onDeleted();
    forgetTicket(queryClient, serverId, ticket.ticketId);
  };

  return (
    <Group gap="xs" role="group" aria-label={t('tickets.view.actions')}>
      <Button variant="default" size="xs" leftSection={<DownloadIcon size={14} />} loading={exporting} onClick={() => void exportHtml()}>
        {t('tickets.view.exportHtml')}
      </Button>
      <Button variant="default" size="xs" leftSection={<DownloadIcon size={14} />} onClick={exportJson}>
        {t('tickets.view.exportJson')}
      </Button>
      {canDelete && (
        <Button
          color="red"
          variant="light"
          size="xs"
          leftSection={<TrashIcon size={14} />}
          loading={remove.isPending}
          onClick={() => void deleteTicket()}
        >
          {t('tickets.view.delete')}
        </Button>
      )}
    </Group>
  );
}

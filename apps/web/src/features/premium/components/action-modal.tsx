import { Button, Group, Modal, Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** A dialog that asks for a choice before an action on a subscription, then confirms it. */
export function ActionModal({
  opened,
  title,
  children,
  onClose,
  onConfirm,
  busy,
  canConfirm = true,
  danger = false,
}: {
  opened: boolean;
  title: string;
  children: ReactNode;
  onClose: () => void;
  onConfirm: () => void;
  busy: boolean;
  canConfirm?: boolean;
  danger?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Modal opened={opened} onClose={onClose} title={title} centered size="lg">
      <Stack gap="md">
        {children}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} disabled={busy}>
            {t('premium.actions.back')}
          </Button>
          <Button color={danger ? 'red' : undefined} onClick={onConfirm} loading={busy} disabled={!canConfirm}>
            {t('premium.actions.confirm')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

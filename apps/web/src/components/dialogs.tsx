import { Button, Group, Text, ThemeIcon } from '@mantine/core';
import { ModalsProvider, useModals } from '@mantine/modals';
import { useEffect } from 'react';
import { WarningIcon } from './screen-icons';

export type ModalsControls = ReturnType<typeof useModals>;

/**
 * The dialogs of lib/notify.ts. This module (with @mantine/modals and Mantine's Modal) is loaded
 * with the first dialog, not with the first screen.
 */

/** Hands the mounted provider's controls to whoever waits for them; withdraws them on unmount. */
function ModalsBridge({ onReady }: { onReady: (modals: ModalsControls | null) => void }) {
  const modals = useModals();
  useEffect(() => {
    onReady(modals);
    return () => onReady(null);
  }, [modals, onReady]);
  return null;
}

export function ModalsHost({ onReady }: { onReady: (modals: ModalsControls | null) => void }) {
  return (
    <ModalsProvider modalProps={{ centered: true }}>
      <ModalsBridge onReady={onReady} />
    </ModalsProvider>
  );
}

function DialogTitle({ title, warning = false }: { title: string; warning?: boolean }) {
  return (
    <Group gap="sm" wrap="nowrap" component="span">
      {warning && (
        <ThemeIcon color="orange" variant="light" radius="xl" size="lg" component="span">
          <WarningIcon size={20} />
        </ThemeIcon>
      )}
      <span>{title}</span>
    </Group>
  );
}

export interface ConfirmDialog {
  title: string;
  text: string;
  yes: string;
  no: string;
}

/** Resolves true when Yes is clicked; No, Escape, the overlay and the close button answer false. */
export function openConfirm(modals: ModalsControls, dialog: ConfirmDialog): Promise<boolean> {
  return new Promise((resolve) => {
    modals.openConfirmModal({
      title: <DialogTitle title={dialog.title} warning />,
      children: <Text size="sm">{dialog.text}</Text>,
      labels: { confirm: dialog.yes, cancel: dialog.no },
      confirmProps: { color: 'red' },
      onConfirm: () => resolve(true),
      onCancel: () => resolve(false),
      onClose: () => resolve(false),
    });
  });
}

export interface ErrorDialog {
  title: string;
  text: string;
  close: string;
}

/** Resolves once the popup is closed, by its button or otherwise. */
export function openError(modals: ModalsControls, dialog: ErrorDialog): Promise<void> {
  return new Promise((resolve) => {
    const id = modals.openModal({
      title: <DialogTitle title={dialog.title} />,
      onClose: () => resolve(),
      children: (
        <>
          <Text size="sm" role="alert">
            {dialog.text}
          </Text>
          <Group justify="flex-end" mt="md">
            <Button onClick={() => modals.closeModal(id)}>{dialog.close}</Button>
          </Group>
        </>
      ),
    });
  });
}

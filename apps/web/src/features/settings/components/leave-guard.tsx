import { Button, Group, Modal, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useBlocker } from 'react-router';
import type { UpdateQueue } from '../lib/update-queue';
import { usePendingChanges } from '../hooks/use-settings-queue';

/**
 * Warns before leaving while changes are not saved yet: a dialog when navigating within the app
 * (react-router's blocker), the browser's own prompt when closing or reloading the tab.
 */
export function LeaveGuard({ queue }: { queue: UpdateQueue }) {
  const { t } = useTranslation();
  const unsaved = usePendingChanges(queue).length > 0;
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => unsaved && currentLocation.pathname !== nextLocation.pathname,
  );
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (!unsaved) return;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers show the prompt only when a value is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [unsaved]);

  const saveAndLeave = async () => {
    setSaving(true);
    const saved = await queue.flush();
    setSaving(false);
    // A failed change was told by its toast and is undone on screen: the user stays to see it.
    if (blocker.state !== 'blocked') return;
    if (saved) blocker.proceed();
    else blocker.reset();
  };

  const leave = () => {
    queue.discard();
    if (blocker.state === 'blocked') blocker.proceed();
  };

  return (
    <Modal
      opened={blocker.state === 'blocked'}
      onClose={() => blocker.reset?.()}
      title={t('settings.leave.title')}
      centered
    >
      <Text size="sm">{t('settings.leave.text')}</Text>
      <Group justify="flex-end" mt="md" gap="xs">
        <Button variant="default" onClick={() => blocker.reset?.()}>
          {t('settings.leave.stay')}
        </Button>
        <Button variant="light" color="red" onClick={leave} disabled={saving}>
          {t('settings.leave.discard')}
        </Button>
        <Button onClick={() => void saveAndLeave()} loading={saving}>
          {t('settings.leave.save')}
        </Button>
      </Group>
    </Modal>
  );
}

import { Box, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useTourStore } from '../tour-store';
import { LAST_STEP, TOUR_STEPS } from '../tour-steps';

/** The tour itself: one step at a time in a dialog that traps focus and closes on Escape. */
export function WelcomeTourDialog() {
  const { t } = useTranslation();
  const { step, close, next, back } = useTourStore();
  const current = TOUR_STEPS[step] ?? TOUR_STEPS[0];
  const bodyRef = useRef<HTMLDivElement>(null);
  const first = useRef(true);

  // On each new step, move focus to its text so it is read out; the first step starts on "Next".
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    bodyRef.current?.focus();
  }, [step]);

  return (
    <Modal
      opened
      onClose={close}
      title={t(`tour.steps.${current.id}.title`)}
      centered
      size="md"
      closeButtonProps={{ 'aria-label': t('tour.close') }}
      data-tour-step={current.id}
    >
      <Stack gap="lg">
        <Box ref={bodyRef} tabIndex={-1} aria-live="polite" style={{ outline: 'none' }}>
          <Text size="xs" c="dimmed" mb={4}>
            {t('tour.stepOf', { step: step + 1, total: TOUR_STEPS.length })}
          </Text>
          <Text>{t(`tour.steps.${current.id}.body`)}</Text>
        </Box>
        {/* Where the user is, at a glance; "Step n of m" above says it in words. */}
        <Group gap={6} justify="center" aria-hidden>
          {TOUR_STEPS.map((entry, index) => (
            <Box
              key={entry.id}
              data-active={index === step || undefined}
              w={8}
              h={8}
              style={{
                borderRadius: '50%',
                background:
                  index === step ? 'var(--mantine-primary-color-filled)' : 'var(--mantine-color-default-border)',
              }}
            />
          ))}
        </Group>
        <Group justify="space-between" gap="xs">
          <Button variant="subtle" color="gray" onClick={close}>
            {t('tour.skip')}
          </Button>
          <Group gap="xs">
            {step > 0 && (
              <Button variant="default" onClick={back}>
                {t('tour.back')}
              </Button>
            )}
            {step < LAST_STEP ? (
              <Button onClick={next} data-autofocus>
                {t('tour.next')}
              </Button>
            ) : (
              <Button onClick={close} data-autofocus>
                {t('tour.done')}
              </Button>
            )}
          </Group>
        </Group>
      </Stack>
    </Modal>
  );
}

import { Alert, Anchor, List, Stack, Text } from '@mantine/core';
import type { Problem } from '@ticket/contracts';
import { useTranslation } from 'react-i18next';
import { Fact, Facts } from '@/components/facts';
import { type StepId, stepOfPath, translateProblem } from '../../lib/problems';

interface SendStepProps {
  typeLabel: string;
  actionCount: string;
  channel: string | undefined;
  messageSummary: string;
  /** Problems found by the last Send, still there. */
  problems: readonly Problem[];
  stepLabel: (step: StepId) => string;
  onGoTo: (step: StepId) => void;
  /** Where the panel is posted now, when it is. */
  postedIn: string | undefined;
  /** Whether sending keeps the posted message (same channel) or moves the panel. */
  editsInPlace: boolean;
}

/** What will be posted where, and what still stands in the way. */
export function SendStep({
  typeLabel,
  actionCount,
  channel,
  messageSummary,
  problems,
  stepLabel,
  onGoTo,
  postedIn,
  editsInPlace,
}: SendStepProps) {
  const { t } = useTranslation();
  return (
    <Stack gap="md">
      <Facts cols={{ base: 1, xs: 2 }}>
        <Fact label={t('panels.send.message')}>{messageSummary}</Fact>
        <Fact label={t('panels.send.actions')}>
          {typeLabel} · {actionCount}
        </Fact>
        <Fact label={t('panels.send.channel')}>{channel ?? t('panels.send.noChannel')}</Fact>
      </Facts>
      <Text size="sm">
        {postedIn
          ? editsInPlace
            ? t('panels.send.editsInPlace', { channel: postedIn })
            : t('panels.send.moves', { from: postedIn, to: channel ?? '' })
          : channel
            ? t('panels.send.posts', { channel })
            : t('panels.send.pickChannel')}
      </Text>
      <Text size="sm" c="dimmed">
        {t('panels.send.draftHint')}
      </Text>
      {problems.length > 0 && (
        <Alert color="red" title={t('panels.send.problems', { count: problems.length })}>
          <List size="sm" spacing={4}>
            {problems.map((problem, i) => {
              const step = stepOfPath(problem.path);
              return (
                <List.Item key={i}>
                  {translateProblem(problem, t)}
                  {step !== 'send' && (
                    <>
                      {' '}
                      <Anchor component="button" type="button" size="sm" onClick={() => onGoTo(step)}>
                        {t('panels.send.goTo', { step: stepLabel(step) })}
                      </Anchor>
                    </>
                  )}
                </List.Item>
              );
            })}
          </List>
        </Alert>
      )}
    </Stack>
  );
}

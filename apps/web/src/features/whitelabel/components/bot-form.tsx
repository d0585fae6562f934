import { Button, Group, Paper, PasswordInput, Stack, TextInput, Title } from '@mantine/core';
import type { WhitelabelEntry } from '@ticket/contracts';
import { DISCORD_LIMITS } from '@ticket/contracts/rules';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';

export interface BotFormValues {
  /** Empty when an existing bot keeps its token. */
  token: string;
  /** Null for none. */
  activity: string | null;
}

/** How a save went: the form keeps what was typed unless it was saved, and shows a token the service refused on its field. */
export type SaveOutcome = 'saved' | 'failed' | { tokenError: string };

interface BotFormProps {
  /** The bot to change, or null to set one up. */
  bot: WhitelabelEntry | null;
  busy: boolean;
  saving: boolean;
  onSave: (values: BotFormValues) => Promise<SaveOutcome>;
}

/**
 * The bot's token and activity. A new bot needs its token; an existing one keeps its token unless
 * a new one is typed. The token is typed, sent and forgotten: the field is emptied once it is
 * saved, and no bot's token is ever shown.
 */
export function BotForm({ bot, busy, saving, onSave }: BotFormProps) {
  const { t } = useTranslation();
  const headingId = useId();
  const [token, setToken] = useState('');
  const [activity, setActivity] = useState(bot?.activity ?? '');
  const [tokenError, setTokenError] = useState<string | null>(null);
  const nextActivity = activity.trim() === '' ? null : activity.trim();
  const changed = token.trim() !== '' || nextActivity !== (bot?.activity ?? null);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!bot && token.trim() === '') {
      setTokenError(t('whitelabel.form.tokenRequired'));
      return;
    }
    setTokenError(null);
    const outcome = await onSave({ token: token.trim(), activity: nextActivity });
    if (outcome === 'saved') setToken('');
    else if (outcome !== 'failed') setTokenError(outcome.tokenError);
  };

  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby={headingId}>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Stack gap="md">
          <Title order={2} size="h4" id={headingId}>
            {t('whitelabel.form.title')}
          </Title>
          <PasswordInput
            label={t('whitelabel.form.token')}
            description={t(bot ? 'whitelabel.form.tokenKeep' : 'whitelabel.form.tokenHelp')}
            required={!bot}
            value={token}
            onChange={(event) => {
              setToken(event.currentTarget.value);
              setTokenError(null);
            }}
            error={tokenError}
            // Mantine's PasswordInput marks only its wrapper; a screen reader needs the input marked too.
            aria-invalid={tokenError !== null || undefined}
            autoComplete="off"
            spellCheck={false}
            dir="ltr"
            visibilityToggleButtonProps={{ 'aria-label': t('whitelabel.form.showToken') }}
          />
          <TextInput
            label={t('whitelabel.form.activity')}
            description={t('whitelabel.form.activityHelp')}
            value={activity}
            onChange={(event) => setActivity(event.currentTarget.value)}
            maxLength={DISCORD_LIMITS.activityName}
          />
          <Group>
            <Button type="submit" loading={saving} disabled={busy || (bot !== null && !changed)}>
              {t('whitelabel.form.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

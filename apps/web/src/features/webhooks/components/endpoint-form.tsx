import { Button, Checkbox, Group, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { WEBHOOK_EVENTS, type WebhookEventType } from '@ticket/contracts';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isResponseError } from '@/lib/api';
import { eventLabelKey, fieldOf } from './labels';

export interface EndpointDraft {
  url: string;
  events: WebhookEventType[];
  description: string | null;
}

interface EndpointFormProps {
  initial?: EndpointDraft;
  submitLabel: string;
  saving: boolean;
  /** Resolves when saved; rejects with the call's error, shown here. */
  onSubmit: (draft: EndpointDraft) => Promise<unknown>;
  onCancel?: () => void;
}

/**
 * The URL, events and description of an endpoint, to add one or change it. The URL rules (https,
 * a public address) are the server's: its 400 is shown under the field it names.
 */
export function EndpointForm({ initial, submitLabel, saving, onSubmit, onCancel }: EndpointFormProps) {
  const { t } = useTranslation();
  const [url, setUrl] = useState(initial?.url ?? '');
  const [events, setEvents] = useState<string[]>(initial?.events ?? []);
  const [description, setDescription] = useState(initial?.description ?? '');
  const [errors, setErrors] = useState<{ url?: string; events?: string; form?: string }>({});

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found: typeof errors = {};
    if (url.trim() === '') found.url = t('webhooks.form.urlRequired');
    if (events.length === 0) found.events = t('webhooks.form.eventsRequired');
    setErrors(found);
    if (found.url || found.events) return;
    const chosen = WEBHOOK_EVENTS.filter((name) => events.includes(name));
    try {
      await onSubmit({ url: url.trim(), events: chosen, description: description.trim() || null });
    } catch (error) {
      const field = isResponseError(error, 400) ? fieldOf(error.body?.field) : undefined;
      if (field === 'url') setErrors({ url: t('webhooks.form.urlInvalid') });
      else if (field === 'events') setErrors({ events: t('webhooks.form.eventsRequired') });
      else setErrors({ form: t('webhooks.form.failed') });
    }
  };

  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <Stack gap="sm">
        <TextInput
          label={t('webhooks.form.url')}
          description={t('webhooks.form.urlHint')}
          placeholder="https://hooks.example.com/tickets"
          type="url"
          dir="ltr"
          required
          value={url}
          onChange={(event) => setUrl(event.currentTarget.value)}
          error={errors.url}
          maxLength={2048}
          autoComplete="off"
          spellCheck={false}
        />
        <Checkbox.Group label={t('webhooks.form.events')} required value={events} onChange={setEvents} error={errors.events}>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs" mt={6}>
            {WEBHOOK_EVENTS.map((name) => (
              <Checkbox key={name} value={name} label={t(eventLabelKey(name))} />
            ))}
          </SimpleGrid>
        </Checkbox.Group>
        <TextInput
          label={t('webhooks.form.description')}
          value={description}
          onChange={(event) => setDescription(event.currentTarget.value)}
          maxLength={200}
        />
        {errors.form && (
          <Text size="sm" c="red" role="alert">
            {errors.form}
          </Text>
        )}
        <Group gap="sm">
          <Button type="submit" loading={saving}>
            {submitLabel}
          </Button>
          {onCancel && (
            <Button variant="default" onClick={onCancel} disabled={saving}>
              {t('webhooks.form.cancel')}
            </Button>
          )}
        </Group>
      </Stack>
    </form>
  );
}

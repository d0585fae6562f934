import { Alert, Button, FileButton, Group, List, Stack, Text, Title } from '@mantine/core';
import type { ConfigurationChanges, ConfigurationDocument, UnsetId } from '@ticket/contracts';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isResponseError } from '@/lib/api';
import { notifyError, notifySuccess } from '@/lib/notify';
import { useExportConfiguration } from '../../api/get-configuration';
import { usePreviewConfiguration } from '../../api/get-configuration-changes';
import { useImportConfiguration } from '../../api/update-configuration';
import { errorMessage } from '../../lib/error-message';
import { SettingsCard } from '../controls/settings-card';

/** The settings area's export and import of the server's whole configuration as one JSON file. */
export function ConfigurationTransfer({ serverId }: { serverId: string }) {
  const { t } = useTranslation();
  return (
    <Stack gap="md">
      <Text>{t('settings.configuration.intro')}</Text>
      <ExportCard serverId={serverId} />
      <ImportCard serverId={serverId} />
    </Stack>
  );
}

function ExportCard({ serverId }: { serverId: string }) {
  const { t } = useTranslation();
  const exporting = useExportConfiguration(serverId);
  return (
    <SettingsCard title={t('settings.configuration.export.title')} description={t('settings.configuration.export.description')}>
      <Group>
        <Button
          loading={exporting.isPending}
          onClick={() =>
            exporting.mutate(undefined, {
              onSuccess: () => notifySuccess(t('settings.configuration.export.done')),
              onError: (error) => notifyError(errorMessage(error), t('settings.configuration.export.failed')),
            })
          }
        >
          {t('settings.configuration.export.button')}
        </Button>
      </Group>
    </SettingsCard>
  );
}

function ImportCard({ serverId }: { serverId: string }) {
  const { t } = useTranslation();
  const [chosen, setChosen] = useState<{ name: string; doc: ConfigurationDocument } | null>(null);
  const [unreadable, setUnreadable] = useState<string | null>(null);
  const preview = usePreviewConfiguration(serverId);
  const importing = useImportConfiguration(serverId);
  // Clears the file input too, so the same file can be chosen again after a cancel or a fix.
  const clearInput = useRef<() => void>(null);

  const reset = () => {
    clearInput.current?.();
    setChosen(null);
    setUnreadable(null);
    preview.reset();
  };

  const choose = async (file: File | null) => {
    reset();
    if (!file) return;
    let doc: ConfigurationDocument;
    try {
      // Only its syntax is checked here: the server checks the rest and names the field that is wrong.
      doc = JSON.parse(await file.text()) as ConfigurationDocument;
    } catch {
      setUnreadable(file.name);
      return;
    }
    setChosen({ name: file.name, doc });
    preview.mutate(doc);
  };

  const apply = () => {
    if (!chosen) return;
    importing.mutate(chosen.doc, {
      onSuccess: () => {
        notifySuccess(t('settings.configuration.import.done'));
        reset();
      },
      onError: (error) => notifyError(errorMessage(error), t('settings.configuration.import.failed')),
    });
  };

  return (
    <SettingsCard title={t('settings.configuration.import.title')} description={t('settings.configuration.import.description')}>
      <Group>
        <FileButton resetRef={clearInput} onChange={(file) => void choose(file)} accept="application/json,.json">
          {(props) => (
            <Button variant="default" {...props} disabled={importing.isPending}>
              {t('settings.configuration.import.choose')}
            </Button>
          )}
        </FileButton>
        {chosen && <Text size="sm">{chosen.name}</Text>}
      </Group>
      {unreadable && (
        <Alert color="red" title={t('settings.configuration.import.refused')}>
          {t('settings.configuration.import.notJson', { name: unreadable })}
        </Alert>
      )}
      {preview.isPending && <Text size="sm">{t('settings.configuration.import.checking')}</Text>}
      {preview.isError && <Refusal error={preview.error} />}
      {preview.data && (
        <>
          <ChangesView changes={preview.data} />
          <Group>
            <Button variant="light" color="red" loading={importing.isPending} onClick={apply}>
              {t('settings.configuration.import.confirm')}
            </Button>
            <Button variant="default" disabled={importing.isPending} onClick={reset}>
              {t('settings.configuration.import.cancel')}
            </Button>
          </Group>
        </>
      )}
    </SettingsCard>
  );
}

/**
 * Why the server refused the file. A file is long and written by hand at times: each problem is
 * shown with its place in the file (the request's "body." left out), as the server named it.
 */
function Refusal({ error }: { error: unknown }) {
  const { t } = useTranslation();
  const issues = isResponseError(error) ? (error.body?.issues ?? []) : [];
  const inFile = (field: string) => field.replace(/^body\.?/, '');
  return (
    <Alert color="red" title={t('settings.configuration.import.refused')}>
      {issues.length === 0 ? (
        errorMessage(error)
      ) : (
        <List size="sm">
          {issues.map((issue) => (
            <List.Item key={`${issue.field}:${issue.message}`}>
              {inFile(issue.field) ? t('settings.configuration.import.problemAt', { field: inFile(issue.field), problem: issue.message }) : issue.message}
            </List.Item>
          ))}
        </List>
      )}
    </Alert>
  );
}

/** One list of names under its heading, left out when empty. */
function NameList({ title, names, panel = false }: { title: string; names: string[]; panel?: boolean }) {
  const { t } = useTranslation();
  if (names.length === 0) return null;
  return (
    <div>
      <Title order={4} size="h6">
        {title}
      </Title>
      <List size="sm">
        {names.map((name, i) => (
          <List.Item key={`${name}-${i}`}>{panel && name === '' ? t('settings.configuration.preview.untitled') : name}</List.Item>
        ))}
      </List>
    </div>
  );
}

function UnsetLine({ entry }: { entry: UnsetId }) {
  const { t } = useTranslation();
  const where =
    entry.subject !== null
      ? t('settings.configuration.preview.inSubject', { name: entry.subject })
      : t('settings.configuration.preview.inPanel', { name: entry.panel || t('settings.configuration.preview.untitled') });
  return (
    <List.Item>
      {where}: {t(`settings.configuration.preview.unset.${entry.setting}`, { id: entry.id })}
    </List.Item>
  );
}

/** What the import will do, as the server described it. */
function ChangesView({ changes }: { changes: ConfigurationChanges }) {
  const { t } = useTranslation();
  const p = 'settings.configuration.preview';
  const { subjects, panels, serverSettings, unsetIds } = changes;
  const nothing =
    [subjects.created, subjects.updated, subjects.deleted, panels.created, panels.updated, panels.deleted].every((l) => l.length === 0) &&
    serverSettings.length === 0;
  const onOff = (value: unknown) => t(value ? `${p}.on` : `${p}.off`);

  return (
    <Stack gap="sm" role="region" aria-label={t(`${p}.title`)}>
      <Title order={3} size="h5">
        {t(`${p}.title`)}
      </Title>
      {nothing && <Text size="sm">{t(`${p}.nothing`)}</Text>}
      <NameList title={t(`${p}.subjectsCreated`)} names={subjects.created} />
      <NameList title={t(`${p}.subjectsUpdated`)} names={subjects.updated} />
      <NameList title={t(`${p}.subjectsDeleted`)} names={subjects.deleted} />
      <NameList title={t(`${p}.panelsCreated`)} names={panels.created} panel />
      <NameList title={t(`${p}.panelsUpdated`)} names={panels.updated} panel />
      <NameList title={t(`${p}.panelsDeleted`)} names={panels.deleted} panel />
      {serverSettings.length > 0 && (
        <div>
          <Title order={4} size="h6">
            {t(`${p}.serverSettings`)}
          </Title>
          <List size="sm">
            {serverSettings.map((change) => (
              <List.Item key={change.setting}>
                {change.setting === 'language'
                  ? t(`${p}.language`, { from: String(change.from), to: String(change.to) })
                  : t(`${p}.publicStats`, { from: onOff(change.from), to: onOff(change.to) })}
              </List.Item>
            ))}
          </List>
        </div>
      )}
      {unsetIds.length > 0 && (
        <Alert color="yellow" title={t(`${p}.unsetTitle`)}>
          <List size="sm">
            {unsetIds.map((entry) => (
              <UnsetLine key={entry.field} entry={entry} />
            ))}
          </List>
        </Alert>
      )}
      {(subjects.deleted.length > 0 || panels.deleted.length > 0) && (
        <Text size="sm" c="dimmed">
          {t(`${p}.deletedNote`)}
        </Text>
      )}
      {(panels.created.length > 0 || panels.updated.length > 0) && (
        <Text size="sm" c="dimmed">
          {t(`${p}.draftsNote`)}
        </Text>
      )}
    </Stack>
  );
}

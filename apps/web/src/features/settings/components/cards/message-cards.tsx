import { Switch, TextInput } from '@mantine/core';
import type { Subject } from '@ticket/contracts';
import { DISCORD_LIMITS } from '@ticket/contracts/rules';
import { useTranslation } from 'react-i18next';
import { isLinkTarget } from '../controls/button-editor';
import { ButtonPreview } from '../controls/button-preview';
import { useDraft } from '../controls/draft';
import { EmojiPicker } from '../controls/emoji-picker';
import { InheritToggle, useInherits } from '../controls/inherit-toggle';
import { MessageEditor } from '../controls/message-editor';
import { FieldGroup, SettingsCard } from '../controls/settings-card';
import { useSettingWriter, useSubjectEditor } from '../subject-editor-context';

type MessageKey = keyof Subject['messages'];

/** A message of the subject: on or off, inherited or its own, and its content. */
function SubjectMessageEditor({ message }: { message: MessageKey }) {
  const { t } = useTranslation();
  const { subject } = useSubjectEditor();
  const { set } = useSettingWriter();
  const group = `messages.${message}` as const;
  const inherits = useInherits(group);
  const value = subject.messages[message];
  return (
    <>
      <Switch
        label={t('settings.message.enabled')}
        checked={value.enabled}
        onChange={(event) => set(`${group}.enabled`, event.currentTarget.checked)}
      />
      <InheritToggle group={group} />
      <MessageEditor
        legend={t(`settings.message.names.${message}`)}
        // The bot's own welcome and close messages stand in for empty ones, in the ticket's language.
        description={message === 'messageCommandResponse' ? undefined : t('settings.message.defaultWhenEmpty')}
        value={value.value.message}
        disabled={inherits || !value.enabled}
        onChange={(next) => set(`${group}.value.message`, next)}
      />
    </>
  );
}

function LinkButtonEditor() {
  const { t } = useTranslation();
  const { subject } = useSubjectEditor();
  const { set } = useSettingWriter();
  const link = subject.buttons.linkButton;
  const [url, setUrl] = useDraft(link.url ?? '');
  const urlProblem = url.trim() !== '' && !isLinkTarget(url) ? t('settings.buttons.urlInvalid') : undefined;
  return (
    <FieldGroup legend={t('settings.linkButton.legend')} description={t('settings.linkButton.description')}>
      <Switch
        label={t('settings.linkButton.enabled')}
        checked={link.enabled}
        onChange={(event) => set('buttons.linkButton.enabled', event.currentTarget.checked)}
      />
      <TextInput
        label={t('settings.buttons.text')}
        value={link.text}
        maxLength={DISCORD_LIMITS.buttonLabel}
        disabled={!link.enabled}
        onChange={(event) => set('buttons.linkButton.text', event.currentTarget.value)}
      />
      <TextInput
        label={t('settings.buttons.url')}
        description={t('settings.buttons.urlHint')}
        value={url}
        maxLength={2048}
        disabled={!link.enabled}
        error={urlProblem}
        onChange={(event) => {
          const next = event.currentTarget.value;
          setUrl(next);
          if (next.trim() === '') set('buttons.linkButton.url', null);
          else if (isLinkTarget(next)) set('buttons.linkButton.url', next.trim());
        }}
      />
      <EmojiPicker
        label={t('settings.buttons.emoji')}
        value={link.emote}
        disabled={!link.enabled}
        onChange={(emote) => set('buttons.linkButton.emote', emote)}
      />
      {link.enabled && <ButtonPreview text={link.text} style="Link" emoji={link.emote} />}
    </FieldGroup>
  );
}

export function WelcomeMessagesCard() {
  const { t } = useTranslation();
  return (
    <SettingsCard title={t('settings.cards.welcomeMessages.title')} description={t('settings.cards.welcomeMessages.description')}>
      <SubjectMessageEditor message="initialMessage" />
      <LinkButtonEditor />
    </SettingsCard>
  );
}

export function ResponseMessagesCard() {
  const { t } = useTranslation();
  return (
    <SettingsCard title={t('settings.cards.responseMessages.title')} description={t('settings.cards.responseMessages.description')}>
      <SubjectMessageEditor message="messageCommandResponse" />
    </SettingsCard>
  );
}

export function CloseMessagesCard() {
  const { t } = useTranslation();
  const { subject } = useSubjectEditor();
  const { set } = useSettingWriter();
  return (
    <SettingsCard title={t('settings.cards.closeMessages.title')} description={t('settings.cards.closeMessages.description')}>
      <Switch
        label={t('settings.closing.dmAuthorOnClose')}
        description={t('settings.closing.dmAuthorOnCloseHint')}
        checked={subject.automation.dmAuthorOnClose}
        onChange={(event) => set('automation.dmAuthorOnClose', event.currentTarget.checked)}
      />
      <SubjectMessageEditor message="closeMessage" />
    </SettingsCard>
  );
}

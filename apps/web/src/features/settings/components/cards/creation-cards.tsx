import type { Subject } from '@ticket/contracts';
import { useTranslation } from 'react-i18next';
import { ButtonEditor, type EditableButton } from '../controls/button-editor';
import { InheritToggle, useInherits } from '../controls/inherit-toggle';
import { SettingsCard } from '../controls/settings-card';
import { TicketNameFormatInput } from '../controls/ticket-name-format';
import { useSettingWriter, useSubjectEditor } from '../subject-editor-context';

export function TicketFormattingCard() {
  const { t } = useTranslation();
  const { subject } = useSubjectEditor();
  const { set } = useSettingWriter();
  const inherits = useInherits('ticketNameFormat');
  return (
    <SettingsCard title={t('settings.cards.ticketFormatting.title')} description={t('settings.cards.ticketFormatting.description')}>
      <InheritToggle group="ticketNameFormat" />
      <TicketNameFormatInput
        value={subject.ticketNameFormat.value}
        subjectName={subject.name}
        disabled={inherits}
        onChange={(value) => set('ticketNameFormat.value', value)}
      />
    </SettingsCard>
  );
}

type SubjectButtonKey = Exclude<keyof Subject['buttons'], 'linkButton'>;

/** The editor of one of the subject's buttons, each field written on its own path. */
export function SubjectButtonEditor({ button, fixedStyle }: { button: SubjectButtonKey; fixedStyle?: boolean }) {
  const { t } = useTranslation();
  const { subject } = useSubjectEditor();
  const { set } = useSettingWriter();
  const value: EditableButton = subject.buttons[button];
  return (
    <ButtonEditor
      legend={t(`settings.buttons.names.${button}`)}
      description={t(`settings.buttons.hints.${button}`)}
      // An empty text is the bot's own, written in the ticket's language when it is sent.
      textPlaceholder={t('settings.buttons.textDefault')}
      value={value}
      fixedStyle={fixedStyle}
      onChange={(field, next) => set(`buttons.${button}.${field}`, next)}
    />
  );
}

export function TicketButtonsCard() {
  const { t } = useTranslation();
  return (
    <SettingsCard title={t('settings.cards.ticketButtons.title')} description={t('settings.cards.ticketButtons.description')}>
      <SubjectButtonEditor button="closeButton" />
      <SubjectButtonEditor button="claimButton" />
      {/* The bot makes "go to ticket" a link to the new channel: only its text and emoji are the admin's. */}
      <SubjectButtonEditor button="goToTicket" fixedStyle />
    </SettingsCard>
  );
}

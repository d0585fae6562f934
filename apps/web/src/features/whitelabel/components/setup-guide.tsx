import { Anchor, List, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';

/** The platform's page where bots are made; always the real one, as a bot token comes only from there. */
const DEVELOPER_PORTAL_URL = 'https://discord.com/developers/applications';

const STEPS = ['application', 'bot', 'token', 'intents', 'invite', 'save'] as const;

/** How to make the bot the page asks for: an application, its bot, its token, the intents it needs, its invite. */
export function SetupGuide() {
  const { t } = useTranslation();
  const headingId = useId();
  return (
    <Stack gap="xs" component="section" aria-labelledby={headingId}>
      <Title order={2} size="h4" id={headingId}>
        {t('whitelabel.guide.title')}
      </Title>
      <List type="ordered" spacing="xs">
        {STEPS.map((step) => (
          <List.Item key={step}>{t(`whitelabel.guide.${step}`)}</List.Item>
        ))}
      </List>
      <Text size="sm">
        <Anchor href={DEVELOPER_PORTAL_URL} target="_blank" rel="noopener noreferrer">
          {t('whitelabel.guide.portal')}
          <VisuallyHidden>{t('dashboard.opensInNewTab')}</VisuallyHidden>
        </Anchor>
      </Text>
    </Stack>
  );
}

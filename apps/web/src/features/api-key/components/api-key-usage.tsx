import { Anchor, Code, Paper, Stack, Text, Title } from '@mantine/core';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { apiDocsUrl, serverSettingsUrl } from '../api-urls';

/**
 * How to call the API with the key: the header the server reads it from (`Authorization: Bearer`,
 * see apps/server/src/http/route.ts), a call it may make, and the OpenAPI reference.
 */
export function ApiKeyUsage({ serverId, shownKey }: { serverId: string; shownKey: string }) {
  const { t } = useTranslation();
  const headingId = useId();
  const header = `Authorization: Bearer ${shownKey}`;

  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby={headingId}>
      <Stack gap="sm">
        <Title order={2} size="h4" id={headingId}>
          {t('apiKey.usage.title')}
        </Title>
        <Text size="sm">{t('apiKey.usage.header')}</Text>
        <Code block dir="ltr">
          {header}
        </Code>
        <Text size="sm">{t('apiKey.usage.example')}</Text>
        <Code block dir="ltr">{`curl -H "${header}" \\\n  ${serverSettingsUrl(serverId)}`}</Code>
        <Text size="sm">{t('apiKey.usage.scope')}</Text>
        <Anchor href={apiDocsUrl()} size="sm" w="fit-content">
          {t('apiKey.usage.docs')}
        </Anchor>
      </Stack>
    </Paper>
  );
}

import { Accordion, Paper, Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useFormatters } from '@/components/formatters';
import { CARBON_REMOVAL_SHARE, REFUND_WINDOW_DAYS } from '@/lib/plans';

const QUESTIONS = ['cancel', 'refund', 'transfer', 'change', 'ends', 'methods', 'carbon'] as const;

/** The questions buyers ask before they pay (SPEC §2: the Premium page has an FAQ). */
export function PremiumFaq() {
  const { t } = useTranslation();
  const share = useFormatters().percent(CARBON_REMOVAL_SHARE);
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="faq-title">
      <Stack gap="sm">
        <Title order={2} size="h3" id="faq-title">
          {t('premium.faq.title')}
        </Title>
        <Accordion variant="separated" chevronPosition="right">
          {QUESTIONS.map((id) => (
            <Accordion.Item key={id} value={id}>
              <Accordion.Control>{t(`premium.faq.${id}.question`)}</Accordion.Control>
              <Accordion.Panel>{t(`premium.faq.${id}.answer`, { days: REFUND_WINDOW_DAYS, share })}</Accordion.Panel>
            </Accordion.Item>
          ))}
        </Accordion>
      </Stack>
    </Paper>
  );
}

import { Alert, Box, Button, Container, Group, Paper, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import type { PublicStats } from '@ticket/contracts';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { DocumentTitle } from '@/components/document-title';
import { useFormatters } from '@/components/formatters';
import { LanguagePicker } from '@/components/language-picker';
import { SkipLink } from '@/components/skip-link';
import { usePublicStats } from '../api/get-public-stats';
import { useTestimonials } from '../api/get-testimonials';

const MAIN_ID = 'main-content';
const STATS: (keyof PublicStats)[] = ['servers', 'tickets', 'messages', 'openTickets'];
const FEATURES = ['subjects', 'tickets', 'forms', 'whitelabel'] as const;

/** `/` for signed-out visitors: what the product does, its live numbers, what owners say, and the way in. */
export function LandingPage() {
  const { t } = useTranslation();
  return (
    <>
      <DocumentTitle />
      <SkipLink targetId={MAIN_ID}>{t('nav.skipToContent')}</SkipLink>
      <Box component="header" py="sm" px="md" style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}>
        <Group justify="space-between" maw={1100} mx="auto">
          <Text fw={700}>{t('app.name')}</Text>
          <Group gap="xs">
            <LanguagePicker />
            <Button component={Link} to="/login" variant="light">
              {t('landing.signIn')}
            </Button>
          </Group>
        </Group>
      </Box>
      <Container component="main" id={MAIN_ID} tabIndex={-1} size={1100} py="xl" style={{ outline: 'none' }}>
        <Stack gap={48}>
          <Stack gap="md" maw={720}>
            <Title order={1}>{t('app.name')}</Title>
            <Text size="lg">{t('app.tagline')}</Text>
            <Group>
              <Button component={Link} to="/login" size="md">
                {t('landing.signIn')}
              </Button>
            </Group>
          </Stack>
          <LiveStats />
          <Features />
          <Testimonials />
        </Stack>
      </Container>
    </>
  );
}

function LiveStats() {
  const { t } = useTranslation();
  const format = useFormatters();
  const stats = usePublicStats();
  const headingId = useId();
  return (
    <Stack component="section" aria-labelledby={headingId} gap="md">
      <Stack gap={4}>
        <Title order={2} id={headingId}>
          {t('landing.statsTitle')}
        </Title>
        <Text c="dimmed">{t('landing.statsHint')}</Text>
      </Stack>
      {stats.isError ? (
        <LoadFailed onRetry={() => void stats.refetch()} />
      ) : (
        <SimpleGrid component="dl" cols={{ base: 2, sm: 4 }} m={0} aria-busy={stats.isPending}>
          {STATS.map((key) => (
            <Paper key={key} withBorder radius="md" p="md" data-stat={key}>
              <Text component="dt" size="sm" c="dimmed">
                {t(`landing.${key}`)}
              </Text>
              <Text component="dd" m={0} fz={28} fw={700}>
                {stats.data ? format.number(stats.data[key]) : <Skeleton height={28} width="60%" mt={6} />}
              </Text>
            </Paper>
          ))}
        </SimpleGrid>
      )}
    </Stack>
  );
}

function Features() {
  const { t } = useTranslation();
  const headingId = useId();
  return (
    <Stack component="section" aria-labelledby={headingId} gap="md">
      <Title order={2} id={headingId}>
        {t('landing.featuresTitle')}
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        {FEATURES.map((feature) => (
          <Paper key={feature} withBorder radius="md" p="lg">
            <Title order={3} size="h4" mb="xs">
              {t(`landing.${feature}Title`)}
            </Title>
            <Text>{t(`landing.${feature}Text`)}</Text>
          </Paper>
        ))}
      </SimpleGrid>
    </Stack>
  );
}

function Testimonials() {
  const { t } = useTranslation();
  const format = useFormatters();
  const testimonials = useTestimonials();
  const headingId = useId();
  if (testimonials.data?.length === 0) return null;
  return (
    <Stack component="section" aria-labelledby={headingId} gap="md">
      <Title order={2} id={headingId}>
        {t('landing.testimonialsTitle')}
      </Title>
      {testimonials.isError ? (
        <LoadFailed onRetry={() => void testimonials.refetch()} />
      ) : testimonials.isPending ? (
        <Skeleton height={120} />
      ) : (
        <SimpleGrid cols={{ base: 1, md: 3 }}>
          {testimonials.data.map((entry) => (
            <Paper key={`${entry.author}-${entry.server}`} component="figure" withBorder radius="md" p="lg" m={0}>
              <Stack gap="sm">
                <Text component="blockquote" m={0} fs="italic">
                  {entry.testimonial}
                </Text>
                <Text component="figcaption" size="sm" c="dimmed">
                  {t('landing.testimonialBy', { author: entry.author, server: entry.server, members: format.number(entry.serverSize) })}
                </Text>
              </Stack>
            </Paper>
          ))}
        </SimpleGrid>
      )}
    </Stack>
  );
}

function LoadFailed({ onRetry }: { onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <Alert color="red" role="alert" title={t('landing.loadFailed')}>
      <Button variant="light" color="red" mt="sm" onClick={onRetry}>
        {t('common.tryAgain')}
      </Button>
    </Alert>
  );
}

import { Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { DocumentTitle } from '@/components/document-title';
import { type ProfileSectionEntry, profileSections } from './profile-sections';

/** `/profile`: the signed-in user's own page, built from independent sections. */
export function ProfilePage({ sections = profileSections }: { sections?: ProfileSectionEntry[] }) {
  const { t } = useTranslation();
  return (
    <Stack gap="lg" maw={900} mx="auto">
      <DocumentTitle title={t('menu.myProfile')} />
      <Title order={1}>{t('menu.myProfile')}</Title>
      {sections.map(({ id, Component }) => (
        <Component key={id} />
      ))}
    </Stack>
  );
}

import { Avatar, Button, Code, CopyButton, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useAuthStore } from '@/lib/auth-store';
import { ProfileSection } from './profile-section';

/** Who the user is on Discord, and their id, which support and bots ask for. */
export function IdentitySection() {
  const { t } = useTranslation();
  const user = useAuthStore((state) => state.user);
  if (!user) return null;
  const name = user.globalName ?? user.username;
  return (
    <ProfileSection title={t('profile.identity.title')}>
      <Group gap="md" wrap="nowrap" align="flex-start">
        {/* The name beside it says whose picture this is. */}
        <Avatar src={user.avatarUrl ?? null} alt="" name={name} color="initials" size="xl" />
        <Stack gap={4} miw={0}>
          <Text fz="xl" fw={700} truncate="end">
            {name}
          </Text>
          <Text c="dimmed">@{user.username}</Text>
          <Group gap="xs" wrap="wrap">
            <Text size="sm">
              {t('profile.identity.userId')} <Code>{user.userId}</Code>
            </Text>
            <CopyButton value={user.userId}>
              {({ copied, copy }) => (
                <Button size="compact-sm" variant="light" color={copied ? 'teal' : undefined} onClick={copy}>
                  {copied ? t('profile.identity.copied') : t('profile.identity.copyId')}
                </Button>
              )}
            </CopyButton>
          </Group>
        </Stack>
      </Group>
    </ProfileSection>
  );
}

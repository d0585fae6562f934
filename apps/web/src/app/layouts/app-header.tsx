import { Anchor, Burger, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { LanguagePicker } from '@/components/language-picker';
import { ThemeToggle } from '@/components/theme-toggle';
import { UserMenu } from '@/features/auth/components/user-menu';
import { paths } from '@/lib/routes';
import { ServerSwitcher } from './server-switcher';
import { showTour } from './tour';

interface AppHeaderProps {
  navbarId: string;
  navbarOpened: boolean;
  onToggleNavbar: () => void;
}

export function AppHeader({ navbarId, navbarOpened, onToggleNavbar }: AppHeaderProps) {
  const { t } = useTranslation();
  return (
    <Group h="100%" px={{ base: 'xs', sm: 'md' }} justify="space-between" wrap="nowrap" gap="xs">
      <Group gap="xs" wrap="nowrap" miw={0}>
        <Burger
          opened={navbarOpened}
          onClick={onToggleNavbar}
          hiddenFrom="sm"
          size="sm"
          aria-label={t('nav.toggleNavigation')}
          aria-expanded={navbarOpened}
          aria-controls={navbarId}
        />
        <Anchor
          component={Link}
          to={paths.dashboard()}
          fw={700}
          size="lg"
          underline="never"
          c="var(--mantine-color-text)"
          aria-label={t('app.name')}
          style={{ display: 'flex', alignItems: 'center', gap: 8, minWidth: 0 }}
        >
          <img src="/favicon.svg" alt="" width={28} height={28} />
          {/* On phones the mark alone, so the header's controls fit in 375 px. */}
          <Text span inherit truncate="end" visibleFrom="xs">
            {t('app.name')}
          </Text>
        </Anchor>
      </Group>
      <Group gap={6} wrap="nowrap">
        <ServerSwitcher />
        <LanguagePicker />
        <ThemeToggle />
        <UserMenu extraItems={[{ label: t('menu.showTour'), onClick: showTour }]} />
      </Group>
    </Group>
  );
}

import { Group, Pagination, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** 'Showing page X of Y' (SPEC §2) and the way to the other pages, under every paged list. */
export function Pager({ page, maxPage, onChange }: { page: number; maxPage: number; onChange: (page: number) => void }) {
  const { t } = useTranslation();
  return (
    <Group justify="space-between" gap="sm">
      <Text size="sm" c="dimmed" role="status">
        {t('common.showingPage', { page, maxPage })}
      </Text>
      {maxPage > 1 && (
        <Pagination
          total={maxPage}
          value={Math.min(page, maxPage)}
          onChange={onChange}
          size="sm"
          getControlProps={(control) => ({
            'aria-label': control === 'previous' ? t('common.previousPage') : t('common.nextPage'),
          })}
          getItemProps={(item) => ({ 'aria-label': t('common.goToPage', { page: item }) })}
        />
      )}
    </Group>
  );
}

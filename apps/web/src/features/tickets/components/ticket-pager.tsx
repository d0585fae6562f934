import { Group, Pagination, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';

/** The page of a ticket list lives in `?page=`, so a reload or a shared link keeps it. */
export function usePageParam(): [number, (page: number) => void] {
  const [search, setSearch] = useSearchParams();
  const page = Math.max(1, Number.parseInt(search.get('page') ?? '1', 10) || 1);
  const setPage = (next: number) =>
    setSearch((current) => {
      const params = new URLSearchParams(current);
      if (next <= 1) params.delete('page');
      else params.set('page', String(next));
      return params;
    });
  return [page, setPage];
}

export function TicketPager({ page, maxPage, onChange }: { page: number; maxPage: number; onChange: (page: number) => void }) {
  const { t } = useTranslation();
  return (
    <Group justify="space-between" gap="sm">
      <Text size="sm" c="dimmed" role="status">
        {t('tickets.showingPage', { page, maxPage })}
      </Text>
      {maxPage > 1 && (
        <Pagination
          total={maxPage}
          value={page}
          onChange={onChange}
          size="sm"
          getControlProps={(control) => ({
            'aria-label': control === 'previous' ? t('tickets.previousPage') : t('tickets.nextPage'),
          })}
          getItemProps={(item) => ({ 'aria-label': t('tickets.goToPage', { page: item }) })}
        />
      )}
    </Group>
  );
}

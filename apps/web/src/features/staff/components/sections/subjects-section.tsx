import { Anchor, Badge, Group, Paper, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { EmptyState } from '@/components/empty-state';
import { LoadError } from '@/components/load-error';
import { LoadingBlock } from '@/components/loading-block';
import { paths } from '@/lib/routes';
import { liveSubjects, useSubjects } from '../../api/get-subjects';
import type { CurrentServer } from '../../hooks/use-current-server';
import { PLANS } from '../../plans';

/** Settings: the server's subjects, the heart of its ticket setup. */
export function SubjectsSection({ current }: { current: CurrentServer }) {
  const { t } = useTranslation();
  const { serverId, plan, server } = current;
  const query = useSubjects(serverId);

  return (
    <Stack gap="md">
      <Text>{t('staff.subjects.explanation')}</Text>
      {query.isPending ? (
        <LoadingBlock />
      ) : query.isError ? (
        <LoadError message={t('staff.subjects.loadFailed')} onRetry={() => void query.refetch()} />
      ) : (
        <SubjectList
          serverId={serverId}
          subjects={liveSubjects(query.data)}
          // The limit depends on the plan, which is only known once the server is loaded.
          maxSubjects={server ? PLANS[plan].maxSubjects : undefined}
        />
      )}
    </Stack>
  );
}

function SubjectList({
  serverId,
  subjects,
  maxSubjects,
}: {
  serverId: string;
  subjects: ReturnType<typeof liveSubjects>;
  maxSubjects: number | undefined;
}) {
  const { t } = useTranslation();
  return (
    <Stack gap="sm">
      {maxSubjects !== undefined && (
        <Text size="sm" c="dimmed">
          {t('staff.subjects.usage', { count: subjects.length, max: maxSubjects })}
        </Text>
      )}
      {subjects.length === 0 ? (
        <EmptyState title={t('staff.subjects.empty')}>{t('staff.subjects.emptyHint')}</EmptyState>
      ) : (
        <Stack component="ul" gap="xs" p={0} m={0} style={{ listStyle: 'none' }}>
          {subjects.map((subject) => (
            <Paper component="li" key={subject.subjectId} withBorder p="sm" radius="md" data-subject-id={subject.subjectId}>
              <Group justify="space-between" gap="xs">
                <Anchor component={Link} to={paths.subject(serverId, subject.subjectId)} fw={600}>
                  {subject.name}
                </Anchor>
                <Group gap={6}>
                  <Badge variant="light" tt="none" color={subject.active ? 'teal' : 'gray'}>
                    {subject.active ? t('staff.subjects.active') : t('staff.subjects.inactive')}
                  </Badge>
                  {subject.disableCreation && (
                    <Badge variant="light" tt="none" color="orange">
                      {t('staff.subjects.creationDisabled')}
                    </Badge>
                  )}
                </Group>
              </Group>
              <Text size="sm" c="dimmed" mt={4}>
                {t('staff.subjects.staffRoles', { count: subject.staffRoles.value.length })}
                {' · '}
                {t('staff.subjects.questions', { count: subject.questions.length })}
              </Text>
            </Paper>
          ))}
        </Stack>
      )}
    </Stack>
  );
}

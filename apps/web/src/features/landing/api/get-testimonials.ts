import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Testimonial } from '@ticket/contracts';
import { getApi } from '@/lib/api';

/** `GET /testimonials` (server data): what server owners say, for anyone. */
export const getTestimonials = (signal?: AbortSignal): Promise<Testimonial[]> => getApi().server.getTestimonials({}, { signal });

export const testimonialsQueryOptions = () =>
  queryOptions({
    queryKey: ['server', 'testimonials'],
    queryFn: ({ signal }) => getTestimonials(signal),
    staleTime: 60 * 60_000,
  });

export const useTestimonials = () => useQuery(testimonialsQueryOptions());

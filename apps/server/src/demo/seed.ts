import type { Kysely } from 'kysely';
import type { DB } from '../db/schema';
import { countTestimonials, insertTestimonials } from '../services/server/repository';
import testimonials from './testimonials.json' with { type: 'json' };

/** Demo mode starts with a few public testimonials so the open pages have something to show. */
export async function seedDemoData(db: Kysely<DB>): Promise<void> {
  if ((await countTestimonials(db)) > 0) return;
  await insertTestimonials(
    db,
    testimonials.map((t, position) => ({ testimonial: t.testimonial, author: t.author, server: t.server, server_size: t.serverSize, position })),
  );
}

// The one tool every model-exit benchmark measures: a 3-property search schema, its arguments and
// its handler, the same for graded-tools and for every baseline it is compared with.
import { z } from 'zod';

export const searchSchema = {
  type: 'object',
  properties: {
    query: { type: 'string', minLength: 1 },
    limit: { type: 'integer', minimum: 1, maximum: 50 },
    locale: { type: 'string', enum: ['en', 'zh-CN'] },
  },
  required: ['query', 'limit', 'locale'],
  additionalProperties: false,
} as const;

export const searchShape = {
  query: z.string().min(1),
  limit: z.number().int().min(1).max(50),
  locale: z.enum(['en', 'zh-CN']),
};

export const searchInput = { query: 'refund for a duplicate charge', limit: 5, locale: 'en' };
export const searchArgs = JSON.stringify(searchInput);

export const searchRun = async (input: { query: string; limit: number }) => ({
  hits: input.limit,
  query: input.query,
});

import type { NextFunction, Request, Response } from 'express';
import type { GraphQLFormattedError } from 'graphql';
import { checkSource } from '../graphql/limits';

/**
 * Express middleware before Apollo: the token and nesting limits of a document, checked on its
 * text before anything parses it (Apollo offers no hook before parsing that can answer 400).
 */
export const documentLimits =
  (format: (error: unknown) => GraphQLFormattedError) =>
  (req: Request, res: Response, next: NextFunction): void => {
    const body = req.body as { query?: unknown } | undefined;
    const query = body?.query ?? (req.method === 'GET' ? req.query.query : undefined);
    if (typeof query === 'string') {
      try {
        checkSource(query);
      } catch (e) {
        res.status(400).json({ errors: [format(e)] });
        return;
      }
    }
    next();
  };

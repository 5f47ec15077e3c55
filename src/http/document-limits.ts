import type { NextFunction, Request, Response } from 'express';
import type { GraphQLFormattedError } from 'graphql';
import { checkSource } from '../graphql/limits';

/**
 * The token and nesting limits of a request's document, checked on its text before anything
 * parses it (Apollo offers no hook before parsing that can answer 400): the formatted error of a
 * document over them, or null.
 */
export function documentRefusal(query: unknown, format: (error: unknown) => GraphQLFormattedError): GraphQLFormattedError | null {
  if (typeof query !== 'string') return null;
  try {
    checkSource(query);
    return null;
  } catch (e) {
    return format(e);
  }
}

/** `documentRefusal` as Express middleware before Apollo, answering 400. */
export const documentLimits =
  (format: (error: unknown) => GraphQLFormattedError) =>
  (req: Request, res: Response, next: NextFunction): void => {
    const body = req.body as { query?: unknown } | undefined;
    const refused = documentRefusal(body?.query ?? (req.method === 'GET' ? req.query.query : undefined), format);
    if (refused) {
      res.status(400).json({ errors: [refused] });
      return;
    }
    next();
  };

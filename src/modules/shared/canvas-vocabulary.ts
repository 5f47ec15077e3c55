import { registerEnumType } from 'type-graphql';
import { badInput } from '../../core/errors';

export const CANVAS_ACTIONS = ['PRESENT', 'CLOSE', 'SUBMIT', 'UPDATE', 'EXECUTE'] as const;
export type CanvasAction = (typeof CANVAS_ACTIONS)[number];

export const CanvasActionEnum = Object.fromEntries(CANVAS_ACTIONS.map((a) => [a, a])) as { [K in CanvasAction]: K };
registerEnumType(CanvasActionEnum, {
  name: 'CanvasAction',
  description: 'What happened on a canvas.',
  valuesConfig: {
    PRESENT: { description: 'The canvas was shown.' },
    CLOSE: { description: 'The user closed it.' },
    SUBMIT: { description: 'The user submitted it.' },
    UPDATE: { description: 'Its content changed.' },
    EXECUTE: { description: 'Something on it was run.' },
  },
});

/**
 * A canvas type: a lower-case identifier of at most 64 characters. Seven are built in (generic,
 * docs, email, sheets, orchestration, terminal, coding); custom types follow the same rule.
 */
export function canvasType(field: string, value: string): string {
  if (!/^[a-z][a-z0-9_]*$/.test(value) || value.length > 64) {
    throw badInput(field, `${field} must be a lower-case identifier ([a-z][a-z0-9_]*) of at most 64 characters`);
  }
  return value;
}

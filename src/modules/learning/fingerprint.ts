import { createHash } from 'node:crypto';
import { pyDumps, pyRound2 } from './python-json';

export interface LayoutMetadata {
  pageCount: number;
  pageDimensions: number[][];
  tableCount: number;
  textCoverageRatio: number;
}

/**
 * The layout fingerprint, byte for byte the one Python document processors compute: SHA-256 hex of Python's
 * `json.dumps({page_count, page_dimensions, table_count, text_coverage_ratio: round(r, 2)}, sort_keys=True)`.
 * Dimensions and the ratio are Python floats ("612.0"); counts are ints.
 */
export function layoutFingerprint(m: LayoutMetadata): string {
  const canonical = pyDumps(
    {
      page_count: m.pageCount,
      page_dimensions: m.pageDimensions,
      table_count: m.tableCount,
      text_coverage_ratio: pyRound2(m.textCoverageRatio),
    },
    { sortKeys: true, asFloat: (path) => path[0] === 'page_dimensions' || path[0] === 'text_coverage_ratio' },
  );
  return createHash('sha256').update(canonical, 'utf8').digest('hex');
}

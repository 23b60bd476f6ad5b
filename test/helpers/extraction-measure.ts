/** The scoring of an extraction against a truth lives in bench/lib/extraction-measure.ts (the benchmark and the tests share it). */
export * from '../../bench/lib/extraction-measure.js';

/**
 * APOC's scalar functions in one list, the unit functions/registry.ts loads on first use: the
 * first lookup of an `apoc.` name the registry does not hold, or the first full listing.
 */

import type { FunctionDef } from '../types.js';
import { apocCollFunctions } from './coll.js';
import { apocMapFunctions } from './map.js';
import { apocAnyFunctions } from './any.js';
import { apocTextFunctions } from './text.js';
import { apocConvertFunctions } from './convert.js';
import { apocDateFunctions } from './date.js';

export const apocScalarFunctions: readonly FunctionDef[] = [
  ...apocCollFunctions,
  ...apocMapFunctions,
  ...apocAnyFunctions,
  ...apocTextFunctions,
  ...apocConvertFunctions,
  ...apocDateFunctions,
];

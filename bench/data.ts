// Where the benchmarks find real game data: ../shared/data beside the repository (never copied in).
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
export const SHARED_DATA = path.resolve(here, '..', '..', 'shared', 'data');
export const PY_DATA = path.join(SHARED_DATA, 'py-hightech-2.0-data-raw');

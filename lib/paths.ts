import * as path from 'node:path';

/** Repository root (lib/ sits directly under it). */
export const PROJECT_ROOT = path.resolve(__dirname, '..');
export const FUNCTIONS_DIR = path.join(PROJECT_ROOT, 'functions');
export const STATE_MACHINES_DIR = path.join(PROJECT_ROOT, 'state-machines');
export const TASKS_DIR = path.join(FUNCTIONS_DIR, 'tasks');
export const EDGE_FUNCTION_DIR = path.join(PROJECT_ROOT, 'edge-function');
export const LOCK_FILE = path.join(PROJECT_ROOT, 'package-lock.json');

/**
 * Reading ASL files for the CDK app: which `${...}` placeholders a definition uses and
 * which task Lambda each `${<Name>FunctionArn}` stands for (ARCHITECTURE: state names are
 * PascalCase verbs that match functions/tasks/<kebab-name>.ts).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

export const ASL_SUFFIX = '.asl.json';
const PLACEHOLDER = /\$\{([A-Za-z0-9_]+)\}/g;
const FUNCTION_ARN = /^([A-Z][A-Za-z0-9]*)FunctionArn$/;

/** Every distinct `${Name}` placeholder in the text of an ASL definition, sorted. */
export function placeholdersOf(aslText: string): string[] {
  const names = new Set<string>();
  for (const match of aslText.matchAll(PLACEHOLDER)) names.add(match[1]);
  return [...names].sort();
}

export interface AslPlaceholders {
  /** `CollectPrompts` for `${CollectPromptsFunctionArn}`, sorted. */
  functions: string[];
  /** Placeholders that are not `<Name>FunctionArn`. */
  other: string[];
}

export function classifyPlaceholders(aslText: string): AslPlaceholders {
  const functions: string[] = [];
  const other: string[] = [];
  for (const name of placeholdersOf(aslText)) {
    const match = FUNCTION_ARN.exec(name);
    if (match) functions.push(match[1]);
    else other.push(name);
  }
  return { functions, other };
}

/** `CollectPrompts` → `collect-prompts`, `SubmitIndexNow` → `submit-index-now`, `Step1a` → `step1a`. */
export function kebabCase(pascal: string): string {
  return pascal.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();
}

/** `daily-schedule.asl.json` → `DailySchedule`. */
export function stateMachineId(fileName: string): string {
  return path
    .basename(fileName, ASL_SUFFIX)
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join('');
}

export interface AslFile {
  /** Absolute path. */
  file: string;
  /** `daily-schedule` */
  name: string;
  id: string;
  text: string;
  placeholders: AslPlaceholders;
  /** Contains a Map state in DISTRIBUTED mode (needs the child-execution policy). */
  distributedMap: boolean;
  /** A Distributed Map reads its items from S3 (ItemReader) or writes its results there (ResultWriter). */
  distributedMapObjects: boolean;
}

/** The `*.asl.json` files of a directory (none when it does not exist), sorted by name. */
export function loadAslFiles(dir: string): AslFile[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(ASL_SUFFIX))
    .sort()
    .map((f) => {
      const file = path.join(dir, f);
      const text = fs.readFileSync(file, 'utf8');
      try {
        JSON.parse(text);
      } catch (error) {
        throw new Error(`${file} is not valid JSON: ${(error as Error).message}`);
      }
      return {
        file,
        name: path.basename(f, ASL_SUFFIX),
        id: stateMachineId(f),
        text,
        placeholders: classifyPlaceholders(text),
        distributedMap: /"Mode"\s*:\s*"DISTRIBUTED"/.test(text),
        distributedMapObjects: /"(ItemReader|ResultWriter)"\s*:/.test(text),
      };
    });
}

/**
 * The deployed name of a workflow's state machine. Fixed, so the API stack can grant and
 * address it by ARN without a cross-stack reference (the workflow stack comes later).
 */
export function deployedStateMachineName(workflow: string): string {
  return `ai-visibility-${workflow}`;
}

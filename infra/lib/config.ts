/**
 * The deployment's settings, read from CDK context (cdk.json "context", or `-c key=value` on the
 * command line) and checked with zod before any stack is built, so a wrong or missing value stops the
 * synth with a message that names the key and says how to set it.
 */
import { ConfigurationError } from '@receipts/core';
import { z } from 'zod';

/** The context keys this app reads. */
export const CONTEXT_KEYS = [
  'firebaseProjectId',
  'firebaseWebConfig',
  'firebaseServiceAccountSecretName',
  'adminEmails',
  'storageBackend',
  'azureTablesSecretName',
  'logLevel',
  'logRetentionDays',
  'alarmEmail',
  'budgetEmail',
  'textractMonthlyBudgetUsd',
  'wafRequestsPerIp',
  'wafRequestsPerUser',
  'webAclArn',
  'apiDomainName',
  'apiCertificateArn',
] as const;
export type ContextKey = (typeof CONTEXT_KEYS)[number];

const REQUIRED_KEYS: readonly ContextKey[] = [
  'firebaseProjectId',
  'firebaseWebConfig',
  'firebaseServiceAccountSecretName',
  'adminEmails',
];

/** Where to put each value; appended to every error about that key. */
const HINTS: Record<ContextKey, string> = {
  firebaseProjectId:
    'your Firebase project id, e.g. "my-receipts-1234" (Firebase console > Project settings)',
  firebaseWebConfig:
    'the web app config object from Firebase console > Project settings > Your apps: {"apiKey","authDomain","projectId","appId","messagingSenderId"}',
  firebaseServiceAccountSecretName:
    'the name of the Secrets Manager secret holding the Firebase service account JSON, e.g. "receipts/firebase-service-account"',
  adminEmails: 'a list of e-mail addresses allowed to use the Storage Tester, e.g. ["you@example.com"]',
  storageBackend: '"dynamodb" (default) or "azure"',
  azureTablesSecretName:
    'the common prefix of the Secrets Manager secrets <prefix>/<level> holding each access level\'s Azure table signatures (`npm run tables:access`; needed when storageBackend is "azure")',
  logLevel: 'one of "debug", "info", "warn", "error"',
  logRetentionDays: 'how many days CloudWatch keeps function logs, e.g. 30',
  alarmEmail: 'an e-mail address that receives alarm notifications (optional)',
  budgetEmail:
    'an e-mail address told when Textract spending nears its monthly budget (optional; alarmEmail by default)',
  textractMonthlyBudgetUsd: 'the monthly Textract budget in US dollars, e.g. 25',
  wafRequestsPerIp:
    'requests one IP address may make in 5 minutes before WAF blocks it, e.g. 1000 (at least 10)',
  wafRequestsPerUser:
    'requests to /api one signed-in user (one ID token) may make in 5 minutes before WAF blocks them, e.g. 600 (at least 10)',
  apiDomainName:
    'a host name of yours for the API, e.g. "api.receipts.example.com" (optional): CloudFront then reaches the API there and the execute-api endpoint is disabled; point it (CNAME) at the ApiDomainTarget output',
  apiCertificateArn:
    'the ARN of an ACM certificate for apiDomainName, in the region of the API (needed with apiDomainName)',
  webAclArn:
    'the ARN of an existing WAF web ACL of scope CLOUDFRONT (in us-east-1) to use instead of the one the ReceiptsEdge stack makes (optional)',
};

// Secrets Manager allows these characters in a secret name.
const secretName = z
  .string()
  .min(1)
  .max(512)
  .regex(/^[A-Za-z0-9/_+=.@-]+$/, 'must be a Secrets Manager secret name (letters, digits and /_+=.@-)');

const hostName = z
  .string()
  .min(1)
  .regex(/^[A-Za-z0-9.-]+$/, 'must be a host name such as my-project.firebaseapp.com, without https://');

const nonEmpty = z.string().trim().min(1, 'must not be empty');

export const firebaseWebConfigSchema = z.object({
  apiKey: nonEmpty,
  authDomain: hostName,
  projectId: nonEmpty,
  appId: nonEmpty,
  messagingSenderId: nonEmpty,
  storageBucket: z.string().optional(),
  /** The Web Push certificate key pair's public key (Cloud Messaging), for push notifications. */
  vapidKey: z.string().optional(),
});
export type FirebaseWebConfig = z.infer<typeof firebaseWebConfigSchema>;

/** Log retention periods CloudWatch accepts, in days. */
export const LOG_RETENTION_DAYS = [
  1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1827, 3653,
] as const;

const configSchema = z
  .object({
    firebaseProjectId: z
      .string()
      .regex(/^[a-z0-9-]{4,40}$/, 'must be a Firebase project id (lower-case letters, digits and dashes)'),
    firebaseWebConfig: firebaseWebConfigSchema,
    firebaseServiceAccountSecretName: secretName,
    adminEmails: z.array(z.email('must be a list of e-mail addresses')),
    storageBackend: z.enum(['dynamodb', 'azure']).default('dynamodb'),
    azureTablesSecretName: secretName.optional(),
    logLevel: z.enum(['debug', 'info', 'warn', 'error']).default('info'),
    logRetentionDays: z.coerce
      .number()
      .refine((days) => (LOG_RETENTION_DAYS as readonly number[]).includes(days), {
        message: `must be one of ${LOG_RETENTION_DAYS.join(', ')}`,
      })
      .default(30),
    alarmEmail: z.email('must be an e-mail address').optional(),
    budgetEmail: z.email('must be an e-mail address').optional(),
    textractMonthlyBudgetUsd: z.coerce.number().positive('must be more than 0').default(25),
    // WAF's rate-based rules take 10 at least.
    wafRequestsPerIp: z.coerce.number().int().min(10, 'must be at least 10').default(1000),
    wafRequestsPerUser: z.coerce.number().int().min(10, 'must be at least 10').default(600),
    webAclArn: z
      .string()
      .regex(
        /^arn:aws[a-z-]*:wafv2:us-east-1:\d{12}:global\/webacl\/[\w-]+\/[\w-]+$/,
        'must be the ARN of a WAF web ACL of scope CLOUDFRONT, in us-east-1 (arn:aws:wafv2:us-east-1:<account>:global/webacl/<name>/<id>)',
      )
      .optional(),
    apiDomainName: hostName.optional(),
    apiCertificateArn: z
      .string()
      .regex(
        /^arn:aws[a-z-]*:acm:[a-z0-9-]+:\d{12}:certificate\/[\w-]+$/,
        'must be the ARN of an ACM certificate',
      )
      .optional(),
  })
  .superRefine((config, ctx) => {
    if ((config.apiDomainName === undefined) !== (config.apiCertificateArn === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: [config.apiDomainName === undefined ? 'apiDomainName' : 'apiCertificateArn'],
        message: 'is required with apiDomainName or apiCertificateArn: set both, or neither',
      });
    }
    if (config.firebaseWebConfig.projectId !== config.firebaseProjectId) {
      ctx.addIssue({
        code: 'custom',
        path: ['firebaseWebConfig', 'projectId'],
        message: `is "${config.firebaseWebConfig.projectId}" but firebaseProjectId is "${config.firebaseProjectId}"; both must name the same Firebase project`,
      });
    }
    if (config.storageBackend === 'azure' && config.azureTablesSecretName === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['azureTablesSecretName'],
        message: 'is required when storageBackend is "azure"',
      });
    }
  });

/** The validated settings of one deployment. */
export type AppConfig = z.infer<typeof configSchema>;

/** Anything that can answer a context lookup: a construct's `node`, or a plain map in tests. */
export interface ContextSource {
  tryGetContext(key: string): unknown;
}

/**
 * Values passed with `-c key=value` arrive as strings; objects and lists may then be written as JSON,
 * and a list also as comma-separated text.
 */
function decode(key: ContextKey, value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const text = value.trim();
  if (key === 'firebaseWebConfig') {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new ConfigurationError(
        `CDK context "firebaseWebConfig" is not valid JSON. Set it to ${HINTS.firebaseWebConfig}.`,
      );
    }
  }
  if (key === 'adminEmails') {
    if (text.startsWith('[')) {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        throw new ConfigurationError(
          `CDK context "adminEmails" is not a valid JSON list. Set it to ${HINTS.adminEmails}.`,
        );
      }
    }
    return text === '' ? [] : text.split(',').map((email) => email.trim());
  }
  return text === '' ? undefined : text;
}

/**
 * Reads and validates the deployment's settings.
 *
 * @param source - where to look the context keys up (usually `app.node`)
 * @returns the parsed settings, with defaults filled in
 * @throws ConfigurationError naming the first key that is missing, and every key that is wrong
 */
export function readConfig(source: ContextSource): AppConfig {
  const raw: Partial<Record<ContextKey, unknown>> = {};
  for (const key of CONTEXT_KEYS) {
    const value = decode(key, source.tryGetContext(key));
    if (value !== undefined && value !== null) raw[key] = value;
  }

  const missing = REQUIRED_KEYS.filter((key) => raw[key] === undefined);
  if (missing.length > 0) {
    const lines = missing.map((key) => `  - "${key}": ${HINTS[key]}`);
    throw new ConfigurationError(
      `Missing CDK context ${missing.map((key) => `"${key}"`).join(', ')}. ` +
        `Set ${missing.length === 1 ? 'it' : 'them'} in cdk.json under "context" or pass -c <key>=<value>:\n${lines.join('\n')}`,
    );
  }

  const parsed = configSchema.safeParse(raw);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => {
      const key = String(issue.path[0] ?? 'context') as ContextKey;
      const where = issue.path.map(String).join('.');
      const hint = HINTS[key] === undefined ? '' : ` (expected ${HINTS[key]})`;
      return `  - "${where}" ${issue.message}${hint}`;
    });
    throw new ConfigurationError(`Invalid CDK context:\n${lines.join('\n')}`);
  }
  return parsed.data;
}

/** True for the placeholder project ids of cdk.json: such a deployment runs, but nobody can sign in. */
export function isDemoProject(config: AppConfig): boolean {
  return config.firebaseProjectId.startsWith('demo-');
}

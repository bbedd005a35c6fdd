import { ConfigurationError } from '@receipts/core';

/** Account name of the Azure Storage emulator (Azurite). */
export const AZURITE_ACCOUNT_NAME = 'devstoreaccount1';
/** The emulator's well-known, publicly documented account key: it opens nothing but a local Azurite. */
export const AZURITE_ACCOUNT_KEY =
  'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==';
/** Azurite's default Table service port. */
export const AZURITE_TABLE_PORT = 10002;

/**
 * The connection string of Azurite's development account on 127.0.0.1.
 * @param port - the Table service port (default 10002)
 */
export function azuriteConnectionString(port: number = AZURITE_TABLE_PORT): string {
  return (
    `DefaultEndpointsProtocol=http;AccountName=${AZURITE_ACCOUNT_NAME};AccountKey=${AZURITE_ACCOUNT_KEY};` +
    `TableEndpoint=http://127.0.0.1:${port}/${AZURITE_ACCOUNT_NAME};`
  );
}

/** What a connection string says, checked. */
export interface TablesConnection {
  /** The Table service URL, without a trailing slash. */
  endpoint: string;
  /** Shared-key or shared-access-signature credentials. */
  credential: { kind: 'key'; accountName: string; accountKey: string } | { kind: 'sas'; signature: string };
  /** True when the endpoint is plain http on this machine (Azurite), where that is expected. */
  loopbackHttp: boolean;
  /** True when the endpoint is plain http. */
  insecure: boolean;
}

const KNOWN_KEYS = [
  'DefaultEndpointsProtocol',
  'AccountName',
  'AccountKey',
  'EndpointSuffix',
  'TableEndpoint',
  'SharedAccessSignature',
  'BlobEndpoint',
  'QueueEndpoint',
  'FileEndpoint',
  'UseDevelopmentStorage',
  'DevelopmentStorageProxyUri',
];
const ACCOUNT_NAME = /^[a-z0-9]{3,24}$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const LOOPBACK_HOSTS = ['127.0.0.1', 'localhost', '[::1]'];

const fail = (part: string, detail: string) =>
  new ConfigurationError(`Invalid ${part} in the Azure Tables connection string: ${detail}`, {
    code: `Invalid${part}`,
  });

/**
 * Parses and checks an Azure Storage connection string for the Table service. Account-key strings
 * (`AccountName` + `AccountKey`, with `TableEndpoint` or `DefaultEndpointsProtocol` + `EndpointSuffix`),
 * shared-access-signature strings (`TableEndpoint` + `SharedAccessSignature`) and
 * `UseDevelopmentStorage=true` are accepted. Messages name the wrong part and never quote a secret.
 *
 * @param connectionString - the connection string
 * @returns the endpoint and credentials
 * @throws ConfigurationError naming the part that is missing or wrong
 */
export function parseConnectionString(connectionString: string): TablesConnection {
  if (typeof connectionString !== 'string' || connectionString.trim() === '') {
    throw new ConfigurationError('The Azure Tables connection string is empty.', {
      code: 'EmptyConnectionString',
    });
  }
  const parts = new Map<string, string>();
  const segments = connectionString
    .split(';')
    .map((segment) => segment.trim())
    .filter(Boolean);
  segments.forEach((segment, index) => {
    const at = segment.indexOf('=');
    if (at <= 0) {
      throw new ConfigurationError(
        `The Azure Tables connection string is malformed: part ${index + 1} is not a Name=value pair.`,
        { code: 'MalformedConnectionString' },
      );
    }
    const name = segment.slice(0, at).trim();
    const known = KNOWN_KEYS.find((key) => key.toLowerCase() === name.toLowerCase());
    if (!known) {
      throw new ConfigurationError(
        `The Azure Tables connection string has an unknown part "${name}"; expected ${KNOWN_KEYS.slice(0, 6).join(', ')}.`,
        { code: 'MalformedConnectionString' },
      );
    }
    parts.set(known, segment.slice(at + 1).trim());
  });

  if (parts.get('UseDevelopmentStorage')?.toLowerCase() === 'true') {
    return parseConnectionString(azuriteConnectionString());
  }

  const protocol = parts.get('DefaultEndpointsProtocol')?.toLowerCase();
  if (protocol !== undefined && protocol !== 'http' && protocol !== 'https') {
    throw fail('DefaultEndpointsProtocol', `"${protocol}" is neither http nor https.`);
  }

  const accountName = parts.get('AccountName');
  if (accountName !== undefined && !ACCOUNT_NAME.test(accountName)) {
    throw fail(
      'AccountName',
      `"${accountName}" is not an account name (3 to 24 lowercase letters and digits).`,
    );
  }

  let endpoint: string;
  const tableEndpoint = parts.get('TableEndpoint');
  if (tableEndpoint !== undefined) {
    let url: URL;
    try {
      url = new URL(tableEndpoint);
    } catch {
      throw fail('TableEndpoint', `"${tableEndpoint}" is not a URL.`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw fail('TableEndpoint', `"${tableEndpoint}" is not an http or https URL.`);
    }
    if (url.search || url.hash) {
      throw fail(
        'TableEndpoint',
        'it must not carry a query or fragment; put a signature in SharedAccessSignature.',
      );
    }
    endpoint = tableEndpoint.replace(/\/+$/, '');
  } else if (accountName !== undefined) {
    const suffix = parts.get('EndpointSuffix') ?? 'core.windows.net';
    if (!/^[A-Za-z0-9.-]+$/.test(suffix))
      throw fail('EndpointSuffix', `"${suffix}" is not a host name suffix.`);
    endpoint = `${protocol ?? 'https'}://${accountName}.table.${suffix}`;
  } else {
    throw fail('TableEndpoint', 'give TableEndpoint, or AccountName to derive it from.');
  }

  const accountKey = parts.get('AccountKey');
  const signature = parts.get('SharedAccessSignature');
  let credential: TablesConnection['credential'];
  if (accountKey !== undefined) {
    if (accountName === undefined)
      throw fail('AccountName', 'an AccountKey needs the AccountName it belongs to.');
    if (accountKey === '' || !BASE64.test(accountKey)) throw fail('AccountKey', 'it is not a base64 key.');
    credential = { kind: 'key', accountName, accountKey };
  } else if (signature !== undefined) {
    const query = new URLSearchParams(signature.replace(/^\?/, ''));
    if (!query.get('sig') || !query.get('sv')) {
      throw fail('SharedAccessSignature', 'it needs at least the sv and sig parameters of a SAS token.');
    }
    credential = { kind: 'sas', signature: signature.replace(/^\?/, '') };
  } else {
    throw new ConfigurationError(
      'The Azure Tables connection string needs AccountName and AccountKey, or TableEndpoint and SharedAccessSignature.',
      { code: 'MissingCredentials' },
    );
  }

  const url = new URL(endpoint);
  const insecure = url.protocol === 'http:';
  return { endpoint, credential, insecure, loopbackHttp: insecure && LOOPBACK_HOSTS.includes(url.hostname) };
}

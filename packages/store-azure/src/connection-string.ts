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

const LOOPBACK_HOSTS = ['127.0.0.1', 'localhost', '[::1]'];

/** What to do about each part the SDK names when it refuses a connection string. */
const HINTS: Record<string, string> = {
  TableEndpoint:
    'give TableEndpoint, or DefaultEndpointsProtocol, AccountName, AccountKey and EndpointSuffix to derive it from.',
  SharedAccessSignature:
    'a shared-access-signature string needs TableEndpoint and SharedAccessSignature; an account-key string needs DefaultEndpointsProtocol, AccountName and AccountKey.',
  AccountName: "give the storage account's name (for a SAS string, in the TableEndpoint URL).",
  AccountKey: 'it is empty; copy the key from the storage account\'s "Access keys".',
  DefaultEndpointsProtocol: 'it must be http or https.',
  EndpointSuffix: 'give EndpointSuffix (core.windows.net on Azure), or TableEndpoint.',
};

const invalid = (part: string, detail: string) =>
  new ConfigurationError(`Invalid ${part} in the Azure Tables connection string: ${detail}`, {
    code: `Invalid${part}`,
  });

/**
 * Lets `@azure/data-tables` parse a connection string (`create` calls one of its `fromConnectionString`
 * factories) and turns its refusals into a ConfigurationError naming the part, in words a person can
 * act on. The SDK's messages name parts, never values, so no key or signature is repeated.
 *
 * @param create - builds the SDK client from the connection string
 * @throws ConfigurationError naming the part that is missing or wrong
 */
export function fromConnectionString<T>(connectionString: string, create: (value: string) => T): T {
  if (typeof connectionString !== 'string' || connectionString.trim() === '') {
    throw new ConfigurationError('The Azure Tables connection string is empty.', {
      code: 'EmptyConnectionString',
    });
  }
  try {
    return create(connectionString.trim());
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const part = /^Invalid (\w+) in the provided/.exec(message)?.[1];
    if (part !== undefined) throw invalid(part, HINTS[part] ?? 'it is missing or wrong.');
    if (error instanceof TypeError && /Invalid URL/i.test(message))
      throw invalid('TableEndpoint', 'it is not a URL.');
    throw new ConfigurationError(
      'The Azure Tables connection string is malformed: give Name=value parts separated by ";" ' +
        '(DefaultEndpointsProtocol, AccountName, AccountKey and EndpointSuffix or TableEndpoint; ' +
        'or TableEndpoint and SharedAccessSignature).',
      { code: 'MalformedConnectionString', cause: error },
    );
  }
}

/** Where a client built from a connection string talks to, checked. */
export interface TablesEndpoint {
  /** The Table service URL, without a query (no signature) or trailing slash. */
  url: string;
  /** True when it is plain http on this machine (Azurite), where that is expected. */
  loopbackHttp: boolean;
  /** True when it is plain http. */
  insecure: boolean;
}

/**
 * Checks the URL a client was built with: http or https, and says whether it is plain http and
 * whether that is on this machine. The query (a shared-access signature) is left out of the result.
 *
 * @param clientUrl - the SDK client's `url`
 * @throws ConfigurationError when it is not an http or https URL
 */
export function checkTablesEndpoint(clientUrl: string): TablesEndpoint {
  let url: URL;
  try {
    url = new URL(clientUrl);
  } catch {
    throw invalid('TableEndpoint', 'it is not a URL.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw invalid('TableEndpoint', `${url.protocol}// is neither http nor https.`);
  }
  const insecure = url.protocol === 'http:';
  return {
    url: `${url.origin}${url.pathname}`.replace(/\/+$/, ''),
    insecure,
    loopbackHttp: insecure && LOOPBACK_HOSTS.includes(url.hostname),
  };
}

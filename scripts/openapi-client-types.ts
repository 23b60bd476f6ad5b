import openapiTS, { astToString } from 'openapi-typescript';

/**
 * The dashboard's client types of one OpenAPI document, as committed under web/src/backend/generated/: the `paths`,
 * `components` and `operations` interfaces openapi-typescript writes, under a header naming their source.
 */
export async function clientTypesText(documentFile: string, documentJson: string): Promise<string> {
  // A request field with a default may be left out: optional in the client (`defaultNonNullable: false`); a response
  // field with a default is in `required` (zod writes responses as output), so it stays required.
  const ast = await openapiTS(JSON.parse(documentJson) as never, { defaultNonNullable: false });
  return `/**\n * Generated from ${documentFile} by openapi-typescript (npm run openapi:generate); never edit by hand.\n */\n\n${astToString(ast)}`;
}

/**
 * The published contract on the API itself (issue 26): API Gateway documentation parts made
 * from docs/openapi.json (the document `npm run build` keeps up to date), one for the API
 * and one per method (summary, tags, operation id), published as a documentation
 * version the stage points at. Documentation only: requests still reach the per-route Lambdas
 * unchanged (no request validators, whose 400s would not carry the service's error shape), and
 * `aws apigateway get-export --export-type oas30 --parameters extensions=documentation`
 * gives the document back from the deployed stage.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import { Construct } from 'constructs';
import { routeKey, type RouteDef } from '../../functions/routes';
import { PROJECT_ROOT } from '../paths';

export const OPENAPI_DOCUMENT = `${PROJECT_ROOT}/docs/openapi.json`;

interface OpenApiOperation { summary?: string; tags?: string[]; operationId?: string }
interface OpenApiDocument { info: { title: string; version: string; description?: string }; paths: Record<string, Record<string, OpenApiOperation>> }

export interface ApiDocumentationProps {
  api: apigateway.RestApi;
  /** The routes the API serves: only their methods are documented. */
  routes: readonly RouteDef[];
  /** Default: docs/openapi.json. */
  documentFile?: string;
}

export class ApiDocumentation extends Construct {
  /** `<info.version>-<first 12 hex of the document's sha256>`: a new version whenever the document changes. */
  readonly version: string;

  constructor(scope: Construct, id: string, props: ApiDocumentationProps) {
    super(scope, id);
    const text = readFileSync(props.documentFile ?? OPENAPI_DOCUMENT, 'utf8');
    const document = JSON.parse(text) as OpenApiDocument;
    const restApiId = props.api.restApiId;
    const parts: apigateway.CfnDocumentationPart[] = [
      new apigateway.CfnDocumentationPart(this, 'Api', {
        restApiId,
        location: { type: 'API' },
        properties: JSON.stringify({ info: document.info }),
      }),
    ];
    for (const route of props.routes) {
      const operation = document.paths[route.path]?.[route.method.toLowerCase()];
      if (!operation) throw new Error(`${routeKey(route)} is not in ${props.documentFile ?? OPENAPI_DOCUMENT}: run npm run openapi`);
      const { summary, tags, operationId } = operation;
      parts.push(new apigateway.CfnDocumentationPart(this, operationId ?? routeKey(route), {
        restApiId,
        location: { type: 'METHOD', path: route.path, method: route.method },
        properties: JSON.stringify({ summary, tags, operationId }),
      }));
    }
    this.version = `${document.info.version}-${createHash('sha256').update(text).digest('hex').slice(0, 12)}`;
    const version = new apigateway.CfnDocumentationVersion(this, 'Version', {
      restApiId,
      documentationVersion: this.version,
      description: 'docs/openapi.json as deployed',
    });
    for (const part of parts) version.addResourceDependency(part);
    // The stage publishes this version; it must exist first.
    props.api.deploymentStage.node.addDependency(version);
  }
}

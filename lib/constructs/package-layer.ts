/**
 * A Lambda layer holding one installed npm package (lib/layers.ts builds its directory from
 * node_modules), made once per stack: the route functions that use the package mark it
 * external in their bundle and attach this layer (lib/stacks/api-stack.ts).
 */
import { Stack } from 'aws-cdk-lib';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import { buildPackageLayer, LAYER_PACKAGES, type LayerPackage } from '../layers';
import { RUNTIME } from './runtime';

const layers = new WeakMap<Stack, Map<LayerPackage, lambda.LayerVersion>>();

/** The stack's layer of `pkg`, created at first use. */
export function packageLayer(scope: Construct, pkg: LayerPackage): lambda.LayerVersion {
  const stack = Stack.of(scope);
  let byPackage = layers.get(stack);
  if (!byPackage) {
    byPackage = new Map();
    layers.set(stack, byPackage);
  }
  let layer = byPackage.get(pkg);
  if (!layer) {
    const built = buildPackageLayer(pkg);
    const id = `${pkg.replace(/(^|[^A-Za-z0-9])([a-z])/g, (_m, _s, c: string) => c.toUpperCase()).replace(/[^A-Za-z0-9]/g, '')}Layer`;
    layer = new lambda.LayerVersion(stack, id, {
      code: lambda.Code.fromAsset(built.dir),
      compatibleRuntimes: [RUNTIME],
      compatibleArchitectures: [lambda.Architecture.ARM_64],
      description: `${pkg}@${built.version}: ${LAYER_PACKAGES[pkg].description}`,
      license: built.license,
    });
    byPackage.set(pkg, layer);
  }
  return layer;
}

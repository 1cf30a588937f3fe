#!/usr/bin/env node
/** CDK entry (cdk.json: `npx tsx bin/app.ts`). Synthesizes offline; no credentials needed. */
import { App } from 'aws-cdk-lib';
import { buildApp, envFromProcess } from '../lib/app';
import { enableNag } from '../lib/nag';

const app = new App();
buildApp(app, { env: envFromProcess() });
enableNag(app);
app.synth();

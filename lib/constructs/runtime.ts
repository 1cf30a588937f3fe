import * as lambda from 'aws-cdk-lib/aws-lambda';

/** The fleet's Node.js runtime: every function and layer is built for it. */
export const RUNTIME = lambda.Runtime.NODEJS_22_X;

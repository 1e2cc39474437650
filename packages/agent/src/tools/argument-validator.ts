import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { AgentError } from '../errors/index.ts';

// Made with the first tool compiled, not when the module loads: a program that imports the
// package and compiles no tool (the workbench server starting up) does not pay for it.
let ajv: Ajv | undefined;

export type ArgumentValidator = (value: Record<string, unknown>) => string | undefined;

/**
 * Compiles a tool's JSON Schema once. The validator returns a readable message for the model, or
 * `undefined` when the arguments are valid.
 */
export function compileArgumentValidator(
  toolName: string,
  schema: Readonly<Record<string, unknown>>,
): ArgumentValidator {
  let validate: ValidateFunction;
  try {
    ajv ??= new Ajv({ allErrors: true, strict: false, coerceTypes: false, useDefaults: true });
    validate = ajv.compile(schema);
  } catch (error) {
    throw new AgentError(
      'INVALID_INPUT',
      `Tool '${toolName}' has an invalid parameters schema: ${String(error)}`,
      {
        source: 'tool',
        cause: error,
        details: { toolName },
      },
    );
  }
  return (value) => (validate(value) ? undefined : describeErrors(validate.errors ?? []));
}

function describeErrors(errors: readonly ErrorObject[]): string {
  return errors
    .map((error) => {
      const where = error.instancePath === '' ? 'arguments' : `arguments${error.instancePath}`;
      const extra =
        error.keyword === 'additionalProperties'
          ? ` ('${String((error.params as { additionalProperty?: unknown }).additionalProperty)}')`
          : '';
      return `${where} ${error.message ?? 'is invalid'}${extra}`;
    })
    .join('; ');
}

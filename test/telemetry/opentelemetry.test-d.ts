import type { TracerProvider as ApiTracerProvider } from '@opentelemetry/api';
import { TracerProvider } from '@opentelemetry/sdk-trace';
import type { RegistryOptions } from 'graded-tools';
import { type OpenTelemetryOptions, openTelemetry, type Telemetry } from 'graded-tools/opentelemetry';
import { describe, expectTypeOf, it } from 'vitest';

describe('graded-tools/opentelemetry types', () => {
  it('returns what the registry takes as its telemetry option', () => {
    expectTypeOf(openTelemetry()).toEqualTypeOf<Telemetry>();
    expectTypeOf(openTelemetry()).toExtend<NonNullable<RegistryOptions['telemetry']>>();
  });

  it("takes the SDK's provider or any provider of the API, and only boolean switches", () => {
    expectTypeOf(new TracerProvider()).toExtend<ApiTracerProvider>();
    openTelemetry({ tracerProvider: new TracerProvider(), recordArguments: true, recordResults: false });
    expectTypeOf<OpenTelemetryOptions['recordArguments']>().toEqualTypeOf<boolean | undefined>();
    // @ts-expect-error a provider must be one, not a name
    openTelemetry({ tracerProvider: 'jaeger' });
    // @ts-expect-error recording is switched on with a boolean
    openTelemetry({ recordResults: 'yes' });
  });
});

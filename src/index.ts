/**
 * tempmon-kit: mock server and contract-testing kit for the temperature-monitoring alert and sensor
 * listings. This is the one public entry; everything else is internal.
 */
import type { components } from './types/openapi.ts';

export { createApp, createMock, DEFAULT_API_KEY, type AppOptions, type Mock, type ScenarioOptions } from './server/create-app.ts';
export { nodeListener } from './server/node-listener.ts';
export { runContract, type ContractOptions } from './contract/run-contract.ts';
export { ALL_CHECKS } from './contract/checks/index.ts';
export { consoleReport } from './contract/reports/console-report.ts';
export { junitReport } from './contract/reports/junit-report.ts';
export { jsonReport } from './contract/reports/json-report.ts';
export type { CheckOutcome, ContractReport, Failure, Severity } from './contract/types.ts';
export { ContractSetupError } from './contract/types.ts';
export { createProxy, type ProxyOptions } from './proxy/create-proxy.ts';
export { generateDataset, DEFAULT_DATASET, type Dataset, type DatasetOptions } from './fixtures/generate-dataset.ts';
export { generateRecord } from './fixtures/generate-record.ts';
export { createRecordFactory, type ApiRecord, type RecordFactory } from './fixtures/record-factory.ts';
export { REFERENCE_DATE } from './fixtures/seeded-faker.ts';
export { loadDataFile, DataFileError } from './fixtures/load-data-file.ts';
export { serializeDataset } from './fixtures/serialize-dataset.ts';
export { loadSpec, SpecError, DEFAULT_SPEC_PATH, type LoadedSpec } from './spec/load-spec.ts';
export { listAssumptions, type Assumption } from './spec/list-assumptions.ts';
export type { paths, operations, components } from './types/openapi.ts';

/** An alert record, as the spec defines it. */
export type Alert = components['schemas']['Alert'];
/** A sensor record, as the spec defines it. */
export type Sensor = components['schemas']['Sensor'];
/** An RFC 9457 problem document, as the spec defines it. */
export type Problem = components['schemas']['Problem'];

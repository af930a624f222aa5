// Instance-wide application settings that some tests need at a given value (GET and PUT
// /application/settings, as the administrator). A test declares the value it needs
// (`requires: { setting: at(SETTING, value) }`); an area declares the settings its tests use. The run
// gives each value a phase of its own: the tests that need it run together, after every other test
// and before the next value's (vitest.config.ts), and the first of them sets it once (the
// coordinator's setting phases). No test ever sees a setting change under it.

export type SettingScalar = boolean | string | number;

export interface InstanceSetting<V extends SettingScalar = SettingScalar> {
  /** The application setting's name, as GET /application/settings shows it. */
  name: string;
  /** Its values that tests need, in the order of their phases. */
  values: readonly V[];
}

/** One value of a setting: what a test needs, and what names its phase. */
export interface SettingValue {
  name: string;
  value: SettingScalar;
}

/** The value `value` of `setting`, as a test's requirement. */
export function at<V extends SettingScalar>(setting: InstanceSetting<V>, value: V): SettingValue {
  if (!setting.values.includes(value)) throw new Error(`setting ${setting.name} declares no phase for the value ${JSON.stringify(value)}`);
  return { name: setting.name, value };
}

/** The vitest project that runs the phase of a setting's value (its name is shown in vitest's output). */
export const phaseProject = ({ name, value }: SettingValue): string => `conformance-${name}=${JSON.stringify(value)}`;

export const sameValue = (a: SettingValue | undefined, b: SettingValue | undefined): boolean => a?.name === b?.name && a?.value === b?.value;

import { CFN_VERSIONS } from './cfn/versions.js';
import { allVersions, findVersion, type TemplateVersion } from './versions.js';

/** Every template version, as Heat lists them: the CloudFormation-format ones, then HOT's. */
export function allTemplateVersions(): TemplateVersion[] {
  return [...CFN_VERSIONS, ...allVersions()];
}

/** How Heat names a version: `heat_template_version.2018-08-31`, `AWSTemplateFormatVersion.2010-09-09`. */
export function versionName(version: TemplateVersion, date: string = version.date): string {
  return `${version.key}.${date}`;
}

/** The version a name of Heat's (`<key>.<date or alias>`) names; a HOT date or alias alone too. */
export function findVersionByName(name: string): TemplateVersion | undefined {
  const cfn = CFN_VERSIONS.find((v) => versionName(v) === name);
  if (cfn) return cfn;
  const hot = 'heat_template_version.';
  return findVersion(name.startsWith(hot) ? name.slice(hot.length) : name);
}

import {
  fnBase64,
  fnGetAZs,
  fnJoin,
  fnMemberListToMap,
  fnRef,
  fnReplace,
  fnResourceFacade,
  fnSelect,
  fnSplit,
} from './cfn.js';
import { fnAnd, fnEquals, fnFindInMap, fnGetAtt, fnIf, fnNot, fnOr, fnParamRef } from './cfn-template.js';
import {
  contains,
  filter,
  listConcat,
  listConcatUnique,
  mapMerge,
  mapReplace,
  repeat,
  repeatNested,
  repeatWithMap,
} from './collections.js';
import { andFn, equals, ifFn, ifNullable, notFn, orFn } from './conditions.js';
import {
  getAttr,
  getAttrAll,
  getAttrThenSelect,
  getFile,
  getParam,
  getResource,
  resourceFacade,
} from './references.js';
import {
  digest,
  listJoin,
  listJoinMulti,
  strReplace,
  strReplaceJson,
  strReplaceStrict,
  strReplaceVstrict,
  strSplit,
} from './strings.js';
import type { FunctionDef } from './types.js';
import { makeUrl } from './url.js';
import { yaql } from './yaql.js';

/**
 * Every function definition, keyed by an id that names the variant where versions differ
 * (`list_join@multi` is list_join as 2015-10-15 and later define it). versions.ts picks from here.
 */
export const FUNCTIONS: Readonly<Record<string, FunctionDef>> = {
  get_param: getParam,
  get_resource: getResource,
  'get_attr@select': getAttrThenSelect,
  get_attr: getAttr,
  'get_attr@all': getAttrAll,
  get_file: getFile,
  resource_facade: resourceFacade,
  list_join: listJoin,
  'list_join@multi': listJoinMulti,
  str_replace: strReplace,
  'str_replace@json': strReplaceJson,
  str_replace_strict: strReplaceStrict,
  str_replace_vstrict: strReplaceVstrict,
  str_split: strSplit,
  digest,
  repeat,
  'repeat@map': repeatWithMap,
  'repeat@nested': repeatNested,
  map_merge: mapMerge,
  map_replace: mapReplace,
  list_concat: listConcat,
  list_concat_unique: listConcatUnique,
  filter,
  contains,
  make_url: makeUrl,
  yaql,
  equals,
  not: notFn,
  and: andFn,
  or: orFn,
  if: ifFn,
  'if@nullable': ifNullable,
  'Fn::Select': fnSelect,
  'Fn::Join': fnJoin,
  'Fn::Split': fnSplit,
  'Fn::Replace': fnReplace,
  'Fn::Base64': fnBase64,
  'Fn::MemberListToMap': fnMemberListToMap,
  'Fn::GetAZs': fnGetAZs,
  Ref: fnRef,
  'Fn::ResourceFacade': fnResourceFacade,
  'Fn::GetAtt': fnGetAtt,
  'Fn::FindInMap': fnFindInMap,
  'Fn::If': fnIf,
  'Fn::Equals': fnEquals,
  'Fn::And': fnAnd,
  'Fn::Or': fnOr,
  'Fn::Not': fnNot,
  'Ref@param': fnParamRef,
};

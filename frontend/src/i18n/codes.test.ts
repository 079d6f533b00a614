// @vitest-environment node
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../bridge';
import { otherForm } from './catalog';
import { catalog } from './locales';

const srcDir = fileURLToPath(new URL('..', import.meta.url));
const CODE = /^[A-Z][A-Z0-9_]+$/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return sourceFiles(p);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [p] : [];
  });
}

function parse(file: string): ts.SourceFile {
  return ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
}

/** A string literal's text, or the value of a same-file `const NAME = 'LITERAL'` it names. */
function literalOf(node: ts.Node | undefined, consts: Map<string, string>): string | null {
  if (!node) return null;
  if (ts.isStringLiteralLike(node)) return node.text;
  if (ts.isIdentifier(node)) return consts.get(node.text) ?? null;
  return null;
}

/**
 * The error codes a source file raises or tells apart: the first argument of `new BridgeError`,
 * a code compared with a `.kind`, and codes the bridge exports as constants.
 */
function errorCodesIn(sf: ts.SourceFile, known: Map<string, string>): string[] {
  const consts = new Map(known);
  const codes: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer && ts.isStringLiteralLike(node.initializer)) {
      if (CODE.test(node.initializer.text) && node.name.text === node.initializer.text) codes.push(node.initializer.text);
      consts.set(node.name.text, node.initializer.text);
    }
    if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'BridgeError') {
      const code = literalOf(node.arguments?.[0], consts);
      if (code) codes.push(code);
    }
    if (ts.isBinaryExpression(node) && [ts.SyntaxKind.EqualsEqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsEqualsToken].includes(node.operatorToken.kind)) {
      for (const [side, other] of [[node.left, node.right], [node.right, node.left]] as const) {
        if (ts.isPropertyAccessExpression(side) && side.name.text === 'kind') {
          const code = literalOf(other, consts);
          if (code && CODE.test(code)) codes.push(code);
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return codes;
}

/** The members of a string-literal union type alias, as the generated contract spells it. */
function unionMembers(sf: ts.SourceFile, name: string): string[] {
  let out: string[] = [];
  sf.forEachChild((node) => {
    if (ts.isTypeAliasDeclaration(node) && node.name.text === name && ts.isUnionTypeNode(node.type)) {
      out = node.type.types.flatMap((m) => (ts.isLiteralTypeNode(m) && ts.isStringLiteral(m.literal) ? [m.literal.text] : []));
    }
  });
  return out;
}

function missing(keys: string[]): string[] {
  const lacks = (lang: string, k: string) => {
    const m = catalog[lang]?.[k];
    return m === undefined || otherForm(m).trim() === '';
  };
  return LANGUAGES.flatMap((lang) => keys.filter((k) => lacks(lang, k)).map((k) => `${lang}: ${k}`));
}

describe('every code has words', () => {
  it('each error code the frontend raises or special-cases has a message in every language', () => {
    const bridgeConsts = new Map<string, string>();
    for (const sf of [parse(join(srcDir, 'bridge/errors.ts'))]) {
      sf.forEachChild((n) => {
        if (ts.isVariableStatement(n)) {
          for (const d of n.declarationList.declarations) {
            if (ts.isIdentifier(d.name) && d.initializer && ts.isStringLiteralLike(d.initializer)) bridgeConsts.set(d.name.text, d.initializer.text);
          }
        }
      });
    }
    const where = new Map<string, string>();
    for (const file of sourceFiles(srcDir)) {
      for (const code of errorCodesIn(parse(file), bridgeConsts)) if (!where.has(code)) where.set(code, relative(srcDir, file));
    }
    for (const code of ['TRANSPORT', 'INTERNAL', 'NO_PROVIDER', 'NOT_FOUND']) expect(where.has(code), code).toBe(true);
    const keys = [...where.keys()].sort().map((c) => `error.${c}`);
    expect(missing(keys).map((m) => `${m} (${where.get(m.split('error.')[1] ?? '')})`)).toEqual([]);
  });

  it('the walk finds codes however they are raised, and ignores other kinds', () => {
    const sf = ts.createSourceFile(
      'x.ts',
      `const OWN = 'OWN_CODE';
       throw new BridgeError('RAISED', 'm');
       throw new BridgeError(OWN, 'm');
       if (err.kind === 'SPECIAL') {}
       if ('OTHER' !== e.kind) {}
       if (d.kind === 'approval') {}
       throw new BridgeError(TRANSPORT, 'm');`,
      ts.ScriptTarget.Latest,
      true,
    );
    expect(errorCodesIn(sf, new Map([['TRANSPORT', 'TRANSPORT']])).sort()).toEqual(['OTHER', 'OWN_CODE', 'RAISED', 'SPECIAL', 'TRANSPORT']);
  });

  it('each decision kind of the contract is named wherever the UI names one', () => {
    const kinds = unionMembers(parse(join(srcDir, 'bridge/generated.ts')), 'DecisionKind');
    expect(kinds).toContain('approval');
    const keys = kinds.flatMap((k) => [
      `decision.kind.${k}`,
      `notify.title.${k}`,
      `composer.chip.waiting.${k}`,
      // The composer's mode folders are named in kebab case.
      `composer.mode.${k.replace(/_/g, '-')}`,
    ]);
    expect(missing(keys)).toEqual([]);
  });
});

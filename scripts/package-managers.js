// The package managers' manifests of a release, each made from the same facts: its version,
// licence, homepage and each file's address and sha256 (scripts/release-files.js reads them from
// SHA256SUMS). Homebrew's formula (gw.rb), Scoop's manifest (gw.json) and winget's three
// manifests (winget/), which the release workflow puts into the tap, the bucket and the release.

export const DESCRIPTION = 'Admin CLI for merchants and operators of a card payment gateway'

/** Homebrew's platforms, each the one-file executable's archive Homebrew would install there. */
const BREW_PLATFORMS = [
  ['on_macos', 'on_arm', 'darwin-arm64'],
  ['on_macos', 'on_intel', 'darwin-x64'],
  ['on_linux', 'on_arm', 'linux-arm64'],
  ['on_linux', 'on_intel', 'linux-x64'],
]

/**
 * Homebrew's formula: on each platform the one-file executable, with keytar.node beside it where
 * the archive has one (the OS keychain without an install script, which Homebrew would not run).
 * Where the release has no executable for a platform, gw's npm package on Homebrew's Node, and
 * the formula says so after the install (caveats).
 */
export function formula({version, license, homepage, download}) {
  const npmPackage = download(`gw-${version}.tgz`)
  const source = (indent, found) => [`${indent}url "${found.url}"`, `${indent}sha256 "${found.sha256}"`]
  const platforms = (os) =>
    BREW_PLATFORMS.filter(([each]) => each === os).flatMap(([, arch, target]) => {
      const found = download(`gw-${target}.tar.gz`)
      if (found) return [`    ${arch} do`, ...source('      ', found), '    end']
      return npmPackage ? [`    ${arch} do`, ...source('      ', npmPackage), '      depends_on "node"', '    end'] : []
    })
  const blocks = ['on_macos', 'on_linux'].flatMap((os) => {
    const lines = platforms(os)
    return lines.length ? [`  ${os} do`, ...lines, '  end', ''] : []
  })
  const lines = [
    "# Made by scripts/release-files.js from the release's SHA256SUMS: each sha256 is that file's.",
    'class Gw < Formula',
    `  desc "${DESCRIPTION}"`,
    `  homepage "${homepage}"`,
    `  version "${version}"`,
    `  license "${license}"`,
    '',
    ...blocks,
    '  # The one-file executable where the release has one for this platform, with its guides (docs/)',
    "  # and keytar.node beside it; else gw's npm package on Homebrew's Node.",
    '  def install',
    '    if File.exist?("gw")',
    '      libexec.install Dir["*"]',
    '      bin.install_symlink libexec/"gw"',
    '    else',
    '      system "npm", "install", *std_npm_args',
    '      bin.install_symlink libexec.glob("bin/*")',
    '    end',
    '  end',
    '',
    '  def caveats',
    '    return if (libexec/"gw").exist?',
    '    <<~EOS',
    "      This release has no one-file gw for this platform: gw is its npm package, on Homebrew's Node.",
    '      Homebrew runs no install scripts, so gw has no OS keychain here: gw login needs --insecure-storage, or GW_TOKEN.',
    '    EOS',
    '  end',
    '',
    '  test do',
    '    assert_match "gw/#{version} ", shell_output("#{bin}/gw --version")',
    '  end',
    'end',
  ]
  return `${lines.join('\n')}\n`
}

/** Scoop's manifest: the Windows executables; Windows on ARM runs the x64 one where there is no arm64 one. */
export function scoop({version, license, homepage, download}) {
  const architecture = {}
  for (const [scoopName, target] of [['64bit', 'win-x64'], ['arm64', 'win-arm64']]) {
    const found = download(`gw-${target}.zip`)
    if (found) architecture[scoopName] = {url: found.url, hash: found.sha256, extract_dir: `gw-${target}`}
  }
  return {version, description: DESCRIPTION, homepage, license, architecture, bin: 'gw.exe'}
}

/**
 * winget's manifests (schema 1.6.0), as `wingetcreate submit` takes them: the version's, the
 * installers' (each Windows zip, gw.exe inside as a portable command `gw`) and the default
 * locale's. Returns {name: text}; none where the release has no Windows executable.
 */
export function winget({version, license, homepage, download, publisher}) {
  const id = `${publisher}.gw`
  const header = () => [`# Made by scripts/release-files.js from the release's SHA256SUMS.`, `PackageIdentifier: ${id}`, `PackageVersion: ${version}`]
  const footer = (type) => [`ManifestType: ${type}`, 'ManifestVersion: 1.6.0', '']
  const installers = [['x64', 'win-x64'], ['arm64', 'win-arm64']].flatMap(([arch, target]) => {
    const found = download(`gw-${target}.zip`)
    if (!found) return []
    return [
      `  - Architecture: ${arch}`,
      `    InstallerUrl: ${found.url}`,
      `    InstallerSha256: ${found.sha256.toUpperCase()}`,
      '    NestedInstallerFiles:',
      `      - RelativeFilePath: gw-${target}\\gw.exe`,
      '        PortableCommandAlias: gw',
    ]
  })
  if (installers.length === 0) return {}
  return {
    [`${id}.yaml`]: [...header(), 'DefaultLocale: en-US', ...footer('version')].join('\n'),
    [`${id}.installer.yaml`]: [...header(), 'InstallerType: zip', 'NestedInstallerType: portable', 'Installers:', ...installers, ...footer('installer')].join('\n'),
    [`${id}.locale.en-US.yaml`]: [
      ...header(),
      'PackageLocale: en-US',
      `Publisher: ${publisher}`,
      'PackageName: gw',
      `PackageUrl: ${homepage}`,
      `License: ${license}`,
      `ShortDescription: ${DESCRIPTION}`,
      'Moniker: gw',
      ...footer('defaultLocale'),
    ].join('\n'),
  }
}

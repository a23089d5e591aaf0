import {GwCommand} from '../cli/gw-command.js'

export default class Version extends GwCommand<void> {
  static override summary = "Print gw's version, platform and Node version, as --version does"
  static override description = 'The same line as gw --version (and -v): gw/VERSION PLATFORM-ARCH node-NODE_VERSION, for a bug report.'

  static override examples = ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> --version']

  protected async input() {
    await this.parse(Version)
  }

  protected async operate() {
    this.io.out(this.config.userAgent + '\n')
  }
}

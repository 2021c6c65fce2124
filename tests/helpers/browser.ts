/**
 * Headless Chromium for the browser tests: the binary @sparticuz/chromium ships, driven by
 * puppeteer-core. The pages are drawn in software without the GL emulation (ANGLE on SwiftShader)
 * the package's arguments ask for, which cost about a tenth of the console test's CPU; a POSIX
 * locale would make Chromium report "en-US@posix", which Intl refuses.
 */
import chromium from "@sparticuz/chromium";
import puppeteer, { type Browser } from "puppeteer-core";

/** @sparticuz/chromium's arguments for a GPU emulated in software. */
const SWIFTSHADER = /^--(use-gl|use-angle|enable-unsafe-swiftshader|in-process-gpu|ignore-gpu-blocklist)\b/;

export async function launchChromium(): Promise<Browser> {
  return puppeteer.launch({
    executablePath: await chromium.executablePath(),
    args: [...chromium.args.filter((a) => !SWIFTSHADER.test(a)), "--disable-gpu", "--lang=en-US"],
    headless: true,
  });
}

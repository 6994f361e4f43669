// Template for every profile firefox-use owns. Copied into the profile at each launch, so edits here apply to
// existing profiles too. Goals: start fast and silent, never phone home, never block on UI the agent cannot see.

// First run, welcome and default-browser pages
user_pref("browser.aboutwelcome.enabled", false);
user_pref("browser.shell.checkDefaultBrowser", false);
user_pref("browser.shell.skipDefaultBrowserCheckOnFirstRun", true);
user_pref("browser.startup.homepage_override.mstone", "ignore");
user_pref("browser.startup.homepage", "about:blank");
user_pref("browser.startup.page", 0);
user_pref("startup.homepage_welcome_url", "about:blank");
user_pref("startup.homepage_welcome_url.additional", "");
user_pref("browser.newtabpage.enabled", false);
user_pref("browser.newtab.preload", false);
user_pref("trailhead.firstrun.didSeeAboutWelcome", true);
user_pref("browser.uitour.enabled", false);
user_pref("browser.EULA.override", true);
user_pref("browser.termsofuse.prefMigrationCheck", true);

// Telemetry, studies and data reporting
user_pref("datareporting.healthreport.uploadEnabled", false);
user_pref("datareporting.policy.dataSubmissionEnabled", false);
user_pref("datareporting.policy.dataSubmissionPolicyBypassNotification", true);
user_pref("toolkit.telemetry.enabled", false);
user_pref("toolkit.telemetry.unified", false);
user_pref("toolkit.telemetry.archive.enabled", false);
user_pref("toolkit.telemetry.reportingpolicy.firstRun", false);
user_pref("toolkit.telemetry.server", "");
user_pref("app.normandy.enabled", false);
user_pref("app.normandy.api_url", "");
user_pref("app.shield.optoutstudies.enabled", false);
user_pref("browser.ping-centre.telemetry", false);
user_pref("browser.newtabpage.activity-stream.feeds.telemetry", false);
user_pref("browser.newtabpage.activity-stream.telemetry", false);
user_pref("browser.ml.enable", false);
user_pref("browser.translations.enable", false);

// Updates and remote settings
user_pref("app.update.auto", false);
user_pref("app.update.checkInstallTime", false);
user_pref("app.update.disabledForTesting", true);
user_pref("extensions.update.enabled", false);
user_pref("extensions.getAddons.cache.enabled", false);
user_pref("extensions.blocklist.enabled", false);
user_pref("extensions.systemAddon.update.enabled", false);
user_pref("media.gmp-manager.updateEnabled", false);
user_pref("browser.search.update", false);
user_pref("services.settings.server", "data:,#remote-settings-dummy/v1");
user_pref("browser.region.network.url", "");
user_pref("browser.region.update.enabled", false);
user_pref("general.useragent.updates.enabled", false);

// Safe browsing and background connections
user_pref("browser.safebrowsing.malware.enabled", false);
user_pref("browser.safebrowsing.phishing.enabled", false);
user_pref("browser.safebrowsing.downloads.enabled", false);
user_pref("browser.safebrowsing.blockedURIs.enabled", false);
user_pref("browser.safebrowsing.provider.google.updateURL", "");
user_pref("browser.safebrowsing.provider.google4.updateURL", "");
user_pref("browser.safebrowsing.provider.mozilla.updateURL", "");
user_pref("network.captive-portal-service.enabled", false);
user_pref("network.connectivity-service.enabled", false);
user_pref("network.dns.disablePrefetch", true);
user_pref("network.prefetch-next", false);
user_pref("network.http.speculative-parallel-limit", 0);
user_pref("network.trr.mode", 5);
user_pref("dom.push.connection.enabled", false);
user_pref("geo.provider.network.url", "");
user_pref("identity.fxaccounts.enabled", false);
user_pref("browser.discovery.enabled", false);
user_pref("browser.topsites.contile.enabled", false);
user_pref("browser.pagethumbnails.capturing_disabled", true);

// Session restore: an owned profile starts clean, keeping cookies and storage but no tabs
user_pref("browser.sessionstore.resume_from_crash", false);
user_pref("browser.sessionstore.max_resumed_crashes", 0);
user_pref("browser.sessionstore.max_tabs_undo", 0);
user_pref("browser.startup.couldRestoreSession.count", -1);
user_pref("toolkit.startup.max_resumed_crashes", -1);

// Never block on browser UI
user_pref("browser.tabs.warnOnClose", false);
user_pref("browser.tabs.warnOnCloseOtherTabs", false);
user_pref("browser.tabs.closeWindowWithLastTab", false);
user_pref("browser.warnOnQuit", false);
user_pref("browser.tabs.unloadOnLowMemory", false);
user_pref("signon.rememberSignons", false);
user_pref("dom.max_script_run_time", 0);
user_pref("dom.max_chrome_script_run_time", 0);
user_pref("security.notification_enable_delay", 0);
// A page's beforeunload is shown to the agent even without a prior user gesture
user_pref("dom.require_user_interaction_for_beforeunload", false);

// Popups and target=_blank open as tabs, so they can join the opener's tab group
user_pref("dom.disable_open_during_load", false);
user_pref("browser.link.open_newwindow", 3);
user_pref("browser.link.open_newwindow.restriction", 0);

// File pickers are never shown; uploads go through input.setFiles
user_pref("ui.allow_platform_file_picker", false);

// Downloads go straight to disk without asking
user_pref("browser.download.useDownloadDir", true);
user_pref("browser.download.folderList", 2);
user_pref("browser.download.always_ask_before_handling_new_types", false);
user_pref("browser.download.start_downloads_in_tmp_dir", false);
user_pref("browser.download.panel.shown", true);
user_pref("pdfjs.disabled", true);

// Deterministic input and rendering
user_pref("general.smoothScroll", false);
user_pref("ui.caretBlinkTime", -1);
user_pref("layout.spellcheckDefault", 0);
// Headless Firefox on Linux reports no pointer and no hover ((hover: none), (pointer: none)), yet we drive a mouse:
// pages that show handles, row actions or tooltips only under @media (hover: hover) would hide them from the agent.
// Gecko's PointerCapabilities bits: coarse 1, fine 2, hover 4; 6 is a desktop mouse.
user_pref("ui.primaryPointerCapabilities", 6);
user_pref("ui.allPointerCapabilities", 6);

// window.print() opens a print dialog nobody can answer: it blocks the page's script and every later navigation
// (firefox_dialog cannot see it). print.enabled=false makes window.print() return at once, printing nothing.
user_pref("print.enabled", false);

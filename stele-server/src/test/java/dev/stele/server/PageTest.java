package dev.stele.server;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stele.repo.Id;
import dev.stele.repo.Location;
import dev.stele.snapshot.FileBackup;
import dev.stele.snapshot.SnapshotBrowser;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.Keys;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The web page in a real headless Chromium against a real server: log in, list, browse, download a
 * file and a directory's zip (compared byte for byte with the repository's), a second user who does
 * not see the first's snapshot, log out. Screenshots go to {@code target/page-screenshots/}.
 * Chromium and chromedriver missing is a failure, not a skip: they are what this test is about.
 */
class PageTest {
  private static final Path CHROMIUM = Paths.get("/usr/bin/chromium");
  private static final Path CHROMEDRIVER = Paths.get("/usr/bin/chromedriver");
  private static final Path SCREENSHOTS = Paths.get("target", "page-screenshots");
  private static final Duration WAIT = Duration.ofSeconds(20);

  @TempDir Path tmp;
  private ServerFixture f;
  private FileBackup.Result alpha;
  private FileBackup.Result beta;
  private byte[] big;
  private Path downloads;
  private ChromeDriver browser;
  private String test;
  private final List<RestoreRequests.Request> requests =
      new java.util.concurrent.CopyOnWriteArrayList<>();

  @BeforeEach
  void setUp(TestInfo info) throws Exception {
    test = info.getTestMethod().orElseThrow().getName();
    assertThat(CHROMIUM).as("Debian's chromium (apt-get install chromium)").isExecutable();
    assertThat(CHROMEDRIVER).as("chromedriver (apt-get install chromium-driver)").isExecutable();
    f = new ServerFixture(tmp);
    big = new byte[700_000];
    new Random(14).nextBytes(big);
    alpha =
        f.snapshot(
            "alpha",
            Map.of(
                "a.txt", "alpha secret".getBytes(UTF_8),
                "big.bin", big,
                "sub/deeper/c.txt", "c".getBytes(UTF_8),
                "sub/d e.txt", "d and e".getBytes(UTF_8)),
            List.of("backup"),
            Map.of("stele.dev/backup-name", "alpha"));
    beta =
        f.snapshot(
            "beta",
            Map.of("b.txt", "beta secret".getBytes(UTF_8)),
            List.of("pod-volume"),
            Map.of(
                "stele.dev/pod-namespace", "beta",
                "stele.dev/pod-name", "db",
                "stele.dev/volume", "data"));
    Files.writeString(f.users.resolve("alice"), "alice-password-1");
    Files.writeString(f.users.resolve("bob"), "bob-password-2");
    Files.writeString(
        f.access,
        """
        {"rules": [{"users": ["alice"], "backups": ["alpha"]},
                   {"users": ["bob"], "namespaces": ["beta"]}]}
        """);
    f.restoreRequests =
        new RestoreRequests() {
          @Override
          public Request create(Ask a) {
            Request r =
                new Request(
                    "req-" + requests.size(),
                    a.snapshot(),
                    a.namespace(),
                    a.pod(),
                    a.volume(),
                    List.of(a.path()),
                    a.overwrite(),
                    a.user(),
                    "AwaitingApproval",
                    "awaiting approval of " + a.user() + "'s request");
            requests.add(r);
            return r;
          }

          @Override
          public List<Request> list(String user) {
            return requests.stream().filter(r -> r.requestedBy().equals(user)).toList();
          }
        };
    f.start();
    downloads = Files.createDirectories(tmp.resolve("downloads"));
    browser = chromium(tmp.resolve("chromium-profile"));
  }

  /** Headless Chromium that trusts exactly the test server's key (pinned), nothing else. */
  private ChromeDriver chromium(Path profile) throws Exception {
    String spki =
        Base64.getEncoder()
            .encodeToString(
                MessageDigest.getInstance("SHA-256")
                    .digest(f.certificate().getPublicKey().getEncoded()));
    ChromeOptions options = new ChromeOptions();
    options.setBinary(CHROMIUM.toFile());
    options.addArguments(
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--window-size=1024,768",
        "--user-data-dir=" + profile.toAbsolutePath(),
        "--ignore-certificate-errors-spki-list=" + spki);
    Map<String, Object> prefs = new HashMap<>();
    prefs.put("download.default_directory", downloads.toAbsolutePath().toString());
    prefs.put("download.prompt_for_download", false);
    options.setExperimentalOption("prefs", prefs);
    // Debian's driver, named so Selenium does not go looking for one (Selenium Manager).
    System.setProperty("webdriver.chrome.driver", CHROMEDRIVER.toString());
    ChromeDriver driver = new ChromeDriver(options);
    driver.executeCdpCommand(
        "Browser.setDownloadBehavior",
        Map.of("behavior", "allow", "downloadPath", downloads.toAbsolutePath().toString()));
    return driver;
  }

  @AfterEach
  void tearDown() throws Exception {
    if (browser != null) {
      browser.quit();
    }
    if (f != null) {
      f.close();
    }
  }

  private void screenshot(String name) throws IOException {
    Files.createDirectories(SCREENSHOTS);
    Files.write(
        SCREENSHOTS.resolve(test + "-" + name + ".png"), browser.getScreenshotAs(OutputType.BYTES));
  }

  private WebElement visible(By by) {
    return new WebDriverWait(browser, WAIT)
        .until(ExpectedConditions.visibilityOfElementLocated(by));
  }

  private void logIn(String user, String password) {
    browser.get(f.uri("/").toString());
    visible(By.id("login-user")).sendKeys(user);
    browser.findElement(By.id("login-password")).sendKeys(password);
    browser.findElement(By.cssSelector("#login-form button[type=submit]")).click();
    visible(By.id("snapshots"));
  }

  /** Logs in with the keyboard alone: the page focuses the user field, Tab, Enter submits. */
  private void logInByKeyboard(String user, String password) {
    browser.get(f.uri("/").toString());
    visible(By.id("login-user"));
    browser.switchTo().activeElement().sendKeys(user, Keys.TAB, password, Keys.ENTER);
    visible(By.id("snapshots"));
  }

  /** Waits for a download to finish (Chromium writes {@code .crdownload} until then). */
  private byte[] downloaded(String name) throws Exception {
    Path file = downloads.resolve(name);
    new WebDriverWait(browser, WAIT)
        .until(
            d ->
                Files.isRegularFile(file)
                    && !Files.exists(downloads.resolve(name + ".crdownload")));
    return Files.readAllBytes(file);
  }

  private static Map<String, byte[]> unzip(byte[] zip) throws IOException {
    Map<String, byte[]> out = new HashMap<>();
    try (ZipInputStream in = new ZipInputStream(new ByteArrayInputStream(zip))) {
      for (ZipEntry e; (e = in.getNextEntry()) != null; ) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        in.transferTo(bytes);
        out.put(e.getName(), bytes.toByteArray());
      }
    }
    return out;
  }

  @Test
  void aUserLogsInBrowsesAndDownloadsAFileAndAZipOfADirectory() throws Exception {
    logIn("alice", "alice-password-1");
    assertThat(browser.findElement(By.id("user")).getText()).isEqualTo("alice");
    String list = browser.findElement(By.id("groups")).getText();
    assertThat(list).contains("Backup alpha").contains(alpha.id().hex().substring(0, 8));
    assertThat(list).doesNotContain(beta.id().hex().substring(0, 8)).doesNotContain("beta");
    screenshot("1-snapshots");

    browser.findElement(By.linkText("Backup manifest")).click();
    visible(By.linkText("big.bin"));
    assertThat(browser.findElement(By.id("entries")).getText()).contains("a.txt").contains("sub/");
    screenshot("2-directory");

    browser.findElement(By.linkText("big.bin")).click();
    assertThat(downloaded("big.bin")).isEqualTo(big);

    browser.findElement(By.linkText("sub/")).click();
    visible(By.linkText("d e.txt"));
    screenshot("3-subdirectory");
    browser.findElement(By.id("zip")).click();
    Map<String, byte[]> zip = unzip(downloaded("sub.zip"));
    assertThat(zip.keySet()).containsExactlyInAnyOrder("d e.txt", "deeper/", "deeper/c.txt");
    assertThat(zip.get("d e.txt")).isEqualTo("d and e".getBytes(UTF_8));
    assertThat(zip.get("deeper/c.txt")).isEqualTo("c".getBytes(UTF_8));
    browser.findElement(By.id("tar")).click();
    byte[] tar = downloaded("sub.tar");
    assertThat(new String(tar, 0, 512, UTF_8)).startsWith("d e.txt\0").contains("ustar\u000000");
    assertThat(new String(tar, 512, 7, UTF_8)).isEqualTo("d and e");

    browser.findElement(By.id("logout")).click();
    visible(By.id("login-user"));
    screenshot("4-logged-out");
    browser.get(f.uri("/").toString());
    visible(By.id("login-user")); // the session ended: the page asks to log in again
  }

  @Test
  void aSecondUserSeesOnlyTheirOwnSnapshots() throws Exception {
    browser.manage().window().setSize(new Dimension(390, 844)); // a phone's width
    logInByKeyboard("bob", "bob-password-2");
    assertThat(
            (Boolean)
                browser.executeScript(
                    "return document.documentElement.scrollWidth <= window.innerWidth"))
        .as("nothing wider than a phone's screen")
        .isTrue();
    String list = browser.findElement(By.id("groups")).getText();
    assertThat(list).contains("Namespace beta").contains("beta/db — volume data");
    assertThat(list).doesNotContain(alpha.id().hex().substring(0, 8)).doesNotContain("alpha");
    screenshot("1-snapshots");
    // Alice's snapshot asked for by its id in the address: the page shows the server's refusal.
    browser.get(f.uri("/#/" + alpha.id().hex() + "/").toString());
    new WebDriverWait(browser, WAIT)
        .until(ExpectedConditions.textToBePresentInElementLocated(By.id("message"), "no such"));
    assertThat(browser.findElement(By.id("browser")).isDisplayed()).isFalse();

    // Nor through the API, with bob's session, does the zip of alice's directory exist; hers is
    // streamed (no length known up front) and holds her files.
    String a = alpha.id().hex();
    String alicePath = "/api/v1/snapshots/" + a + "/zip" + alpha.manifest().paths().get(0);
    String bob = f.session("bob", "bob-password-2").get("token").asText();
    assertThat(f.get(bob, alicePath).statusCode()).isEqualTo(404);
    HttpResponse<byte[]> hers =
        f.get(f.session("alice", "alice-password-1").get("token").asText(), alicePath);
    assertThat(hers.statusCode()).isEqualTo(200);
    assertThat(hers.headers().firstValue("Content-Type")).hasValue("application/zip");
    assertThat(hers.headers().firstValue("Content-Length")).isEmpty();
    assertThat(unzip(hers.body()).get("big.bin")).isEqualTo(big);
  }

  @Test
  void aUserSearchesComparesTwoSnapshotsAndDownloadsAnOlderVersion() throws Exception {
    f.clock.advance(Duration.ofMinutes(1));
    FileBackup.Result later =
        f.snapshot(
            "alpha",
            Map.of("a.txt", "alpha secret, second".getBytes(UTF_8)),
            List.of("backup"),
            Map.of("stele.dev/backup-name", "alpha"));
    String root = alpha.manifest().paths().get(0);
    logIn("alice", "alice-password-1");

    visible(By.id("find-pattern")).sendKeys("*.TXT");
    browser.findElement(By.id("find-case")).click();
    browser.findElement(By.cssSelector("#find-form button[type=submit]")).click();
    visible(By.id("found-list"));
    String found = browser.findElement(By.id("found")).getText();
    assertThat(found)
        .contains("6 matches for *.TXT")
        .contains(root + "/a.txt", root + "/sub/d e.txt", root + "/sub/deeper/c.txt")
        .contains(later.id().hex().substring(0, 8), alpha.id().hex().substring(0, 8))
        .doesNotContain("b.txt");
    screenshot("1-search");

    browser.findElement(By.linkText("Back to the snapshots")).click();
    visible(By.id("diff-form"));
    new org.openqa.selenium.support.ui.Select(browser.findElement(By.id("diff-from")))
        .selectByValue(alpha.id().hex());
    new org.openqa.selenium.support.ui.Select(browser.findElement(By.id("diff-to")))
        .selectByValue(later.id().hex());
    browser.findElement(By.cssSelector("#diff-form button[type=submit]")).click();
    visible(By.id("diff-entries"));
    List<String> rows =
        browser.findElements(By.cssSelector("#diff-entries tr")).stream()
            .map(WebElement::getText)
            .toList();
    assertThat(rows).containsExactly("M " + root + "/a.txt 12 B → 20 B");
    screenshot("2-diff");

    browser.get(f.uri("/#/" + later.id().hex() + root).toString());
    // (the search's results, hidden now, have such links too: this is the listing's)
    visible(By.cssSelector("#entries a[aria-label='History of a.txt']")).click();
    visible(By.id("history-entries"));
    assertThat(browser.findElement(By.id("history-title")).getText())
        .isEqualTo("History of " + root + "/a.txt: 2 versions");
    assertThat(browser.findElements(By.cssSelector("#history-entries tr"))).hasSize(2);
    screenshot("3-history");
    browser.findElement(By.linkText("Version 1")).click();
    assertThat(downloaded("a.txt")).isEqualTo("alpha secret".getBytes(UTF_8));
  }

  @Test
  void aUserAsksForAFileBackInItsPodVolumeAndSeesTheRequestAwaitApproval() throws Exception {
    logIn("bob", "bob-password-2");
    assertThat(browser.findElement(By.id("requests")).isDisplayed()).isFalse();
    browser.findElement(By.linkText("beta/db — volume data")).click();
    visible(By.cssSelector("#entries button[aria-label='Restore /b.txt to volume data of db']"))
        .click();
    new WebDriverWait(browser, WAIT).until(ExpectedConditions.alertIsPresent()).accept();
    new WebDriverWait(browser, WAIT)
        .until(
            ExpectedConditions.textToBePresentInElementLocated(
                By.id("message"), "Restore request req-0 sent"));
    assertThat(requests)
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.snapshot()).isEqualTo(beta.id().hex());
              assertThat(r.paths()).containsExactly("/b.txt");
              assertThat(r.overwrite()).isFalse();
              assertThat(r.requestedBy()).isEqualTo("bob");
            });
    screenshot("1-requested");

    browser.findElement(By.linkText("Snapshots")).click();
    visible(By.id("requests"));
    assertThat(browser.findElement(By.id("requests-entries")).getText())
        .isEqualTo(
            "/b.txt beta/db — volume data AwaitingApproval awaiting approval of bob's request");
    screenshot("2-requests");
    // A backup's manifest snapshot has no such button.
    browser.findElement(By.id("logout")).click();
    visible(By.id("login-user"));
    logIn("alice", "alice-password-1");
    browser.findElement(By.linkText("Backup manifest")).click();
    visible(By.linkText("big.bin"));
    assertThat(browser.findElements(By.cssSelector("#entries button"))).isEmpty();
  }

  @Test
  void thePageIsServedWithStrictHeadersAndNoInlineScript() throws Exception {
    HttpResponse<byte[]> page = f.send(HttpRequest.newBuilder(f.uri("/")).GET());
    assertThat(page.statusCode()).isEqualTo(200);
    assertThat(page.headers().firstValue("Content-Type")).hasValue("text/html; charset=utf-8");
    assertThat(page.headers().firstValue("Content-Security-Policy").orElseThrow())
        .contains("script-src 'self'")
        .contains("frame-ancestors 'none'")
        .doesNotContain("unsafe-inline");
    assertThat(page.headers().firstValue("X-Content-Type-Options")).hasValue("nosniff");
    assertThat(page.headers().firstValue("Referrer-Policy")).hasValue("no-referrer");
    String html = new String(page.body(), UTF_8);
    assertThat(html)
        .doesNotContainPattern("<script(?![^>]*\\bsrc=)")
        .doesNotContainPattern("\\son[a-z]+=");
    for (String file : List.of("/app.js", "/style.css")) {
      assertThat(f.send(HttpRequest.newBuilder(f.uri(file)).GET()).statusCode()).isEqualTo(200);
    }
    assertThat(f.send(HttpRequest.newBuilder(f.uri("/other.js")).GET()).statusCode())
        .isEqualTo(404);
  }

  @Test
  void aZipThatFailsHalfWayIsCutShortNotEndedAsIfWhole() throws Exception {
    SnapshotBrowser files = new SnapshotBrowser(f.repo);
    String root = alpha.manifest().paths().get(0);
    List<Id> chunks = files.find(alpha.manifest(), root + "/big.bin").chunks();
    Location last = f.repo.locate(chunks.get(chunks.size() - 1));
    f.store.corrupt(last.pack(), last.entry().offset() + 1);
    String alice = f.session("alice", "alice-password-1").get("token").asText();
    String zip = "/api/v1/snapshots/" + alpha.id().hex() + "/zip" + root;
    // The status and the first entries are sent before big.bin is read: the client must see the
    // body end without its last chunk, not a 200 with a zip that merely lacks its end.
    assertThatThrownBy(() -> f.get(alice, zip)).isInstanceOf(IOException.class);
    assertThat(f.auditText()).contains("\"action\":\"zip\"").contains("\"allowed\":false");
  }
}

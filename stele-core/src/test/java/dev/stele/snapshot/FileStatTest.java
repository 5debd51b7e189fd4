package dev.stele.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Backup reads attributes with statx; the values must be the JDK's to the bit, or every file of a
 * repository's earlier snapshots looks changed once (and device nodes restore wrong).
 */
class FileStatTest {
  @TempDir Path tmp;

  @Test
  void statxGivesWhatTheJdksAttributeViewGivesForEveryKindOfEntry() throws Exception {
    assertThat(Libc.available()).as("the statx path is the one tested here").isTrue();
    Path file = Files.writeString(tmp.resolve("file"), "some bytes");
    Files.setLastModifiedTime(file, FileTime.from(Instant.parse("2021-03-04T05:06:07.123456789Z")));
    Files.createLink(tmp.resolve("second-name"), file);
    Path before1970 = Files.writeString(tmp.resolve("old"), "");
    Files.setLastModifiedTime(before1970, FileTime.from(Instant.parse("1960-01-01T00:00:00.5Z")));
    // Beyond 2262 nanoseconds since 1970 overflow a long: both saturate.
    Path far = Files.writeString(tmp.resolve("far"), "");
    Files.setLastModifiedTime(far, FileTime.from(Instant.parse("2400-01-01T00:00:00.25Z")));
    Path link = Files.createSymbolicLink(tmp.resolve("link"), Path.of("nowhere"));
    Path fifo = tmp.resolve("fifo");
    Libc.mknod(
        Libc.AT_FDCWD,
        Libc.cString(fifo.toString().getBytes(StandardCharsets.UTF_8)),
        Libc.S_IFIFO | 0640,
        0,
        "");

    for (Path p : new Path[] {file, before1970, far, link, fifo, tmp, Path.of("/dev/null")}) {
      FileStat statx = FileStat.of(p);
      assertThat(statx).as(p.toString()).isEqualTo(FileStat.ofJdk(p));
    }
    assertThat(FileStat.of(file).links()).isEqualTo(2);
    assertThat(FileStat.of(file).mtimeNanos())
        .isEqualTo(TimeUnit.SECONDS.toNanos(1614834367) + 123456789);
    assertThat(FileStat.of(far).mtimeNanos()).isEqualTo(Long.MAX_VALUE);
    assertThat(FileStat.of(Path.of("/dev/null")).rdev()).isEqualTo(0x103); // 1, 3
  }

  @Test
  void aRelativePathIsTheWorkingDirectorysAsForTheJdk() throws Exception {
    Path relative = Path.of("pom.xml");
    assertThat(FileStat.of(relative)).isEqualTo(FileStat.ofJdk(relative));
  }

  @Test
  void devicesWithLargeNumbersAreEncodedAsGlibcsMakedev() {
    // Major 0x12345 and minor 0x6789a, as glibc's makedev packs them (<sys/sysmacros.h>).
    assertThat(Libc.makedev(0x12345, 0x6789a)).isEqualTo(0x120006783459aL);
    assertThat(Libc.makedev(254, 0)).isEqualTo(0xfe00);
  }

  @Test
  void restoresViewOfAnEntryIsBackupsOneDecodedTheSameWay() throws IOException {
    Path file = Files.writeString(tmp.resolve("file"), "x");
    byte[] dir = Libc.cString(tmp.toString().getBytes(StandardCharsets.UTF_8));
    int fd = Libc.open(Libc.AT_FDCWD, dir, Libc.O_RDONLY | Libc.O_DIRECTORY, 0, "tmp");
    try {
      Libc.Stat restores =
          Libc.lstat(fd, Libc.cString("file".getBytes(StandardCharsets.UTF_8)), "");
      FileStat backups = FileStat.of(file);
      assertThat(restores).isNotNull();
      assertThat(restores.type()).isEqualTo(backups.type());
      assertThat(restores.nlink()).isEqualTo(backups.links());
      assertThat(restores.ino()).isEqualTo(backups.inode());
      assertThat(restores.dev()).isEqualTo(backups.device());
      assertThat(Libc.lstat(fd, Libc.cString("absent".getBytes(StandardCharsets.UTF_8)), ""))
          .isNull();
    } finally {
      Libc.close(fd, "tmp");
    }
  }

  @Test
  void aVanishedEntryIsNoSuchFileAsFromTheJdk() {
    Path gone = tmp.resolve("gone");
    assertThatThrownBy(() -> FileStat.of(gone)).isInstanceOf(NoSuchFileException.class);
    assertThatThrownBy(() -> FileStat.ofJdk(gone)).isInstanceOf(NoSuchFileException.class);
  }

  @Test
  void aNameThatIsNotAsciiIsReadTheJdksWay() throws IOException {
    Path named = Files.writeString(tmp.resolve("caf\u00e9"), "x");
    assertThat(FileStat.of(named)).isEqualTo(FileStat.ofJdk(named));
  }
}

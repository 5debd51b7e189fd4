package dev.stele.blob;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import org.junit.jupiter.api.Test;

/** A request run aside yields its value, or fails with what it threw, to every caller of get. */
class AsideTest {
  @Test
  void getYieldsWhatTheRequestReturnedOnItsOwnThread() throws IOException {
    Thread caller = Thread.currentThread();
    Aside<Thread> aside = Aside.start("aside-test", Thread::currentThread);
    Thread ran = aside.get();
    assertThat(ran).isNotSameAs(caller);
    assertThat(ran.getName()).isEqualTo("aside-test");
    assertThat(aside.get()).isSameAs(ran);
  }

  @Test
  void getThrowsTheRequestsOwnException() {
    IOException refused = new IOException("refused");
    IllegalStateException broken = new IllegalStateException("broken");
    Aside<String> io =
        Aside.start(
            "aside-io",
            () -> {
              throw refused;
            });
    Aside<String> unchecked =
        Aside.start(
            "aside-unchecked",
            () -> {
              throw broken;
            });
    assertThatThrownBy(io::get).isSameAs(refused);
    assertThatThrownBy(unchecked::get).isSameAs(broken);
  }
}

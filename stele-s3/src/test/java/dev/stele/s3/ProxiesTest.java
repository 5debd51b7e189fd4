package dev.stele.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetSocketAddress;
import java.net.Proxy;
import java.net.URI;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ProxiesTest {
  private static final URI AWS = URI.create("https://s3.eu-west-1.amazonaws.com");
  private static final URI RGW = URI.create("http://rgw.storage.svc:7480");

  private static String address(Proxy proxy) {
    InetSocketAddress a = (InetSocketAddress) proxy.address();
    return a.getHostString() + ":" + a.getPort();
  }

  @Test
  void eachSchemeHasItsVariableInEitherCase() {
    Map<String, String> env =
        Map.of("HTTPS_PROXY", "http://proxy.corp:3128", "http_proxy", "plain.corp:8080");
    assertThat(address(Proxies.of(AWS, env))).isEqualTo("proxy.corp:3128");
    assertThat(address(Proxies.of(RGW, env))).isEqualTo("plain.corp:8080");
    assertThat(Proxies.of(AWS, Map.of("HTTP_PROXY", "plain.corp:8080"))).isNull();
    assertThat(Proxies.of(AWS, Map.of())).isNull();
  }

  @Test
  void noProxyListsHostsDomainsAndEverything() {
    String proxy = "http://proxy.corp:3128";
    assertThat(Proxies.of(RGW, Map.of("HTTP_PROXY", proxy, "NO_PROXY", "localhost, .svc")))
        .isNull();
    assertThat(Proxies.of(RGW, Map.of("HTTP_PROXY", proxy, "no_proxy", "rgw.storage.svc:7480")))
        .isNull();
    assertThat(Proxies.of(AWS, Map.of("HTTPS_PROXY", proxy, "NO_PROXY", "*.amazonaws.com")))
        .isNull();
    assertThat(Proxies.of(AWS, Map.of("HTTPS_PROXY", proxy, "NO_PROXY", "*"))).isNull();
    assertThat(Proxies.of(AWS, Map.of("HTTPS_PROXY", proxy, "NO_PROXY", "zonaws.com,svc")))
        .as("a suffix that is not a domain")
        .isNotNull();
  }

  @Test
  void aProxyThatIsNoAddressIsRefused() {
    assertThatThrownBy(() -> Proxies.of(AWS, Map.of("HTTPS_PROXY", "http://")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("HTTPS_PROXY");
  }
}

package dev.stele.operator.nodeagent;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * What makes a node agent one node's: the node's name, the kubelet's root directory (pods' volumes
 * are under {@code <kubeletRoot>/pods/<uid>/volumes}; tests use a temporary directory), how often a
 * restore waiting for its pod or volume looks again ({@code poll}), and how often progress is
 * written into a running request's status ({@code progress}; zero: only at the end).
 */
public record NodeSettings(String node, Path kubeletRoot, Duration poll, Duration progress) {
  /** The source of the agent's Events. */
  public static final String COMPONENT = "stele-node-agent";

  public static final Path DEFAULT_KUBELET_ROOT = Path.of("/var/lib/kubelet");
  public static final Duration DEFAULT_POLL = Duration.ofSeconds(5);
  public static final Duration DEFAULT_PROGRESS = Duration.ofSeconds(10);

  public NodeSettings {
    Objects.requireNonNull(node, "node");
    if (node.isBlank()) {
      throw new IllegalArgumentException("the node name is empty");
    }
    kubeletRoot = kubeletRoot.toAbsolutePath().normalize();
  }

  public NodeSettings(String node, Path kubeletRoot) {
    this(node, kubeletRoot, DEFAULT_POLL, DEFAULT_PROGRESS);
  }
}

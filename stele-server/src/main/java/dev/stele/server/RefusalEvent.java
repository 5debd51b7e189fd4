package dev.stele.server;

import java.time.Instant;

/**
 * The refusals of one reason for one user within a minute, as one Event: its {@code count} grows
 * while the minute lasts, as Kubernetes' own event recorder counts repeated Events.
 *
 * @param id unique among the server's Events: the sink makes the Event's name from it
 * @param reason {@code LoginRefused} or {@code AccessRefused}
 * @param message who asked, from where, for what, and the refusal's line; never a password or token
 * @param count how many refusals it stands for
 * @param first the first of them
 * @param last the latest of them
 */
public record RefusalEvent(
    String id, String reason, String message, int count, Instant first, Instant last) {}

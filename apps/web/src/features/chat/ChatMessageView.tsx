import type { ChatButton, ChatMessage } from '@mw/contract/chat';
import type { TFunction } from 'i18next';

/** What a pressed button or quick reply sends back. */
export type ChatAction = Extract<ChatMessage, { message_type: 'text' | 'postback' }>;

interface Props {
  message: ChatMessage;
  /** Quick replies stay usable until the customer has answered after them. */
  answered: boolean;
  onAction: (action: ChatAction) => void;
  text: TFunction<'chat'>;
}

/** A web button opens only http(s) or site-relative addresses; a call button dials digits only. */
function ButtonView({ button, onAction, disabled }: { button: ChatButton; onAction: (action: ChatAction) => void; disabled?: boolean }) {
  if (button.type === 'web') {
    const safe = /^(https?:\/\/|\/(?!\/))/i.test(button.payload);
    return safe ? (
      <a className="chat-button" href={button.payload} target="_blank" rel="noopener noreferrer" data-testid="chat-button">
        {button.title}
      </a>
    ) : (
      <span className="chat-button chat-button-off">{button.title}</span>
    );
  }
  if (button.type === 'call') {
    return (
      <a className="chat-button" href={`tel:${button.payload.replace(/[^+\d]/g, '')}`} data-testid="chat-button">
        {button.title}
      </a>
    );
  }
  const action: ChatAction =
    button.type === 'postback' ? { message_type: 'postback', payload: { message: button.title, payload: button.payload } } : { message_type: 'text', payload: { message: button.title } };
  return (
    <button type="button" className="chat-button" onClick={() => onAction(action)} disabled={disabled} data-testid="chat-button">
      {button.title}
    </button>
  );
}

/** One message of any of the seven kinds; every field is shown as text (React escapes it), never as HTML. */
export function ChatMessageView({ message, answered, onAction, text }: Props) {
  switch (message.message_type) {
    case 'text':
      return <p className="chat-text">{message.payload.message}</p>;
    case 'postback':
      return <p className="chat-text">{message.payload.message}</p>;
    case 'buttons':
      return (
        <div className="chat-kind-buttons" data-kind="buttons">
          <p className="chat-text">{message.payload.message}</p>
          <div className="chat-buttons">
            {message.payload.buttons.map((b, i) => (
              <ButtonView key={i} button={b} onAction={onAction} />
            ))}
          </div>
        </div>
      );
    case 'quick_replies':
      return (
        <div className="chat-kind-quick" data-kind="quick_replies">
          <p className="chat-text">{message.payload.message}</p>
          <div className="chat-quick-replies">
            {message.payload.buttons.map((b, i) => (
              <ButtonView key={i} button={b} onAction={onAction} disabled={answered} />
            ))}
          </div>
        </div>
      );
    case 'generic':
      return (
        <div className="chat-cards" data-kind="generic">
          {message.payload.elements.map((card, i) => (
            <div className="chat-card" key={i}>
              {/^(https?:\/\/|\/(?!\/))/i.test(card.image_url) && <img src={card.image_url} alt="" loading="lazy" />}
              <p className="chat-card-title">{card.title}</p>
              <p className="chat-card-subtitle">{card.subtitle}</p>
              <div className="chat-buttons">
                {card.buttons.map((b, j) => (
                  <ButtonView key={j} button={b} onAction={onAction} />
                ))}
              </div>
            </div>
          ))}
        </div>
      );
    case 'media': {
      const { url, fileType, name } = message.payload;
      const safeUrl = /^(https?:\/\/|\/(?!\/)|blob:)/i.test(url) ? url : '';
      return (
        <div className="chat-media" data-kind="media">
          {safeUrl && fileType === 'image' && <img src={safeUrl} alt={name || text('media')} data-testid="chat-image" />}
          {safeUrl && fileType === 'video' && <video src={safeUrl} controls preload="metadata" aria-label={name || text('media')} />}
          {(!safeUrl || fileType === 'file') && <span className="chat-text">{name || text('media')}</span>}
          {message.payload.message && <p className="chat-text">{message.payload.message}</p>}
        </div>
      );
    }
    default:
      return <p className="chat-text chat-unknown">{text('unknownMessage')}</p>;
  }
}
